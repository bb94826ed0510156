"""Dashboard figures come from rows: the seeded sample gives the spec's numbers on any date."""

from datetime import date, timedelta

import pytest
from sqlalchemy import func, select

from sibol.dashboard import seed as dashboard_seed
from sibol.dashboard import service
from sibol.extensions import db
from sibol.household import seed as household_seed
from sibol.models import CollectionSchedule, EnergyReading, WasteCollection
from tests.factories_household import make_schedule, make_waste


def test_seeded_sample_gives_the_spec_figures(app):
    dashboard_seed.sample_data()
    waste = service.waste_summary()
    assert waste["weekly"]["kg"] == [1.5, 1.2, 1.3]
    assert waste["monthly"]["kg"] == [5, 6, 5]
    assert waste["yearly"]["kg"] == [60, 70, 62]
    assert [waste[p]["total_text"] for p in ("weekly", "monthly", "yearly")] == ["4", "16", "192"]
    assert waste["weekly"]["streets"] == ["Rizal Street", "Mabini Street", "Bonifacio Street"]
    assert waste["monthly"]["label"] == "March 2025" and waste["yearly"]["label"] == "2025"


def test_seeding_twice_adds_nothing(app):
    dashboard_seed.sample_data()
    household_seed.sample_data()
    counts = [
        db.session.scalar(select(func.count()).select_from(m))
        for m in (WasteCollection, EnergyReading, CollectionSchedule)
    ]
    dashboard_seed.sample_data()
    household_seed.sample_data()
    assert counts == [
        db.session.scalar(select(func.count()).select_from(m))
        for m in (WasteCollection, EnergyReading, CollectionSchedule)
    ]
    assert counts == [9, 6, 5]


def test_a_new_collection_moves_every_period_to_its_own(app):
    dashboard_seed.sample_data()
    service.record_waste({"street": "Luna Street", "collectedOn": "2026-11-18", "weightKg": "2.25"})
    waste = service.waste_summary()
    for period in ("weekly", "monthly", "yearly"):
        assert waste[period]["streets"] == ["Luna Street"]
        assert waste[period]["kg"] == [2.25]
    assert waste["weekly"]["label"] == "Nov 16 – Nov 22, 2026"


def test_periods_are_calendar_week_month_and_year():
    anchor = date(2025, 12, 31)  # a Wednesday
    assert service.period_range("weekly", anchor) == (date(2025, 12, 29), date(2026, 1, 5))
    assert service.period_range("monthly", anchor) == (date(2025, 12, 1), date(2026, 1, 1))
    assert service.period_range("yearly", anchor) == (date(2025, 1, 1), date(2026, 1, 1))


def test_week_sums_streets_and_leaves_out_other_weeks(app):
    make_waste("A", date(2026, 3, 9), 1000)  # Monday of the anchor's week
    make_waste("A", date(2026, 3, 15), 500)  # Sunday, the anchor
    make_waste("B", date(2026, 3, 8), 7000)  # the Sunday before: same month, not the week
    waste = service.waste_summary()
    assert waste["weekly"]["streets"] == ["A"] and waste["weekly"]["kg"] == [1.5]
    assert waste["monthly"]["kg"] == [1.5, 7] and waste["monthly"]["total_text"] == "8.5"


def test_no_collections_gives_empty_figures(app):
    waste = service.waste_summary()
    assert waste["weekly"] == {"label": "", "streets": [], "kg": [], "total_kg": 0, "total_text": "0"}


def test_energy_shows_january_to_march_of_the_two_latest_years(app):
    for year, values in ((2023, (1, 2, 3)), (2024, (10, 20, None)), (2025, (30, 40, 50))):
        for month, kw in enumerate(values, start=1):
            if kw is not None:
                db.session.add(EnergyReading(month=date(year, month, 1), kilowatts=kw))
    db.session.add(EnergyReading(month=date(2025, 7, 1), kilowatts=999))
    db.session.commit()
    energy = service.energy_summary()
    assert energy["months"] == ["January", "February", "March"] and energy["unit"] == "kWh"
    assert energy["series"] == [
        {"year": 2024, "kilowatts": [10, 20, None]},
        {"year": 2025, "kilowatts": [30, 40, 50]},
    ]


def test_schedule_panel_lists_the_next_three_pending_collections(app):
    today = date.today()
    make_schedule(areas=("Package 9",), when=today - timedelta(days=30), status="Collected")
    late = make_schedule(areas=("Package 1", "Purok 2"), person="Ana", when=today - timedelta(days=1))
    for days, area in ((5, "Package 3"), (2, "Package 2"), (9, "Package 4")):
        make_schedule(areas=(area,), when=today + timedelta(days=days))
    panel = service.schedule_panel()
    assert [row["area"] for row in panel] == ["Package 1, Purok 2", "Package 2", "Package 3"]
    assert panel[0]["staff"] == "Ana" and panel[0]["date"] == late.collection_date


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"street": "", "collectedOn": "2026-01-01", "weightKg": 1}, "street"),
        ({"street": "A", "collectedOn": "01/01/2026", "weightKg": 1}, "collectedOn"),
        ({"street": "A", "collectedOn": "2026-01-01", "weightKg": -1}, "weightKg"),
        ({"street": "A", "collectedOn": "2026-01-01", "weightKg": "heavy"}, "weightKg"),
    ],
)
def test_recording_bad_waste_saves_nothing(app, data, field):
    from sibol.errors import Invalid

    with pytest.raises(Invalid) as caught:
        service.record_waste(data)
    assert caught.value.field == field
    assert db.session.scalar(select(func.count(WasteCollection.id))) == 0
