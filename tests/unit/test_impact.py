"""The impact method's numbers against the worked example in docs/impact.md."""

from __future__ import annotations

from datetime import date

import pytest

from sibol.extensions import db
from sibol.impact import factors
from sibol.impact.service import Impact, Period, for_barangay, for_city
from sibol.models import Barangay, EnergyReading, WasteCollection


def test_the_factors_are_the_documented_ones():
    assert factors.CH4_PER_KG_WASTE == pytest.approx(0.03)
    assert factors.GWP_CH4 == 28 and factors.GRID_KG_CO2_PER_KWH == 0.7122


def test_worked_example_of_a_barangay_month():
    month = Impact(waste_kg=52, energy_kwh=300)
    assert month.methane_kg == pytest.approx(1.56)
    assert month.methane_co2e_kg == pytest.approx(43.68)
    assert month.grid_co2e_kg == pytest.approx(213.66)
    assert month.co2e_kg == pytest.approx(257.34)
    assert month.as_json()["co2eKg"] == 257.3


def test_periods_cut_at_months_and_typed_energy_counts_pro_rata(app):
    assert Period(date(2026, 1, 30), date(2026, 3, 2)).months() == [
        Period(date(2026, 1, 30), date(2026, 2, 1)),
        Period(date(2026, 2, 1), date(2026, 3, 1)),
        Period(date(2026, 3, 1), date(2026, 3, 2)),
    ]
    barangay = db.session.scalar(db.select(Barangay).order_by(Barangay.id))
    db.session.add(EnergyReading(month=date(2026, 6, 1), kilowatts=300))  # June: 30 days
    db.session.add(WasteCollection(street="Rizal", collected_on=date(2026, 6, 3), weight_g=52_000))
    db.session.commit()
    week = for_barangay(barangay.id, Period(date(2026, 6, 1), date(2026, 6, 8)))
    assert week.energy_kwh == pytest.approx(70) and week.energy_source == "readings"
    assert week.waste_kg == 52 and week.waste_source == "collections"
    june = Period.month_of(date(2026, 6, 17))
    assert for_barangay(barangay.id, june).co2e_kg == pytest.approx(257.34)
    assert for_city(june).waste_kg == 52
    assert for_barangay(barangay.id, Period.month_of(date(2026, 7, 1))) == Impact()
