"""Dashboard figures, computed from rows: waste per street, energy per month, next collections.

The waste periods are anchored on the most recent collection on record, not on today: "weekly" is
the Monday-to-Sunday week holding that collection, "monthly" its calendar month, "yearly" its
year. So the seeded sample (dated March 2025) keeps showing the spec's figures whatever the date,
and the first real collection entered moves every period to its own week, month and year.
"""

from __future__ import annotations

from datetime import date, timedelta

from flask_babel import gettext as _
from sqlalchemy import extract, func, select

from ..errors import Conflict
from ..extensions import db
from ..household.service import upcoming_schedules
from ..i18n import localtime
from ..i18n.localtime import format_pattern, week_label
from ..impact import service as impact
from ..inputs import rules
from ..inputs.fields import Errors
from ..models import EnergyReading, WasteCollection
from ..telemetry.service import machine_waste_between

PERIODS = ("weekly", "monthly", "yearly")
PERIOD_NAMES = {"weekly": "Weekly", "monthly": "Monthly", "yearly": "Yearly"}
PROCESS_STAGES = ("Filtering", "Slurry Making", "Biogas Generation", "Final Output")
PROCESS_STEP_SECONDS = 3
MAX_STREETS = 12


def period_range(period: str, anchor: date) -> tuple[date, date]:
    """[start, end) of the week (Monday first), month or year holding anchor."""
    if period == "weekly":
        start = anchor - timedelta(days=anchor.weekday())
        return start, start + timedelta(days=7)
    if period == "monthly":
        start = anchor.replace(day=1)
        end = date(start.year + (start.month == 12), start.month % 12 + 1, 1)
        return start, end
    return date(anchor.year, 1, 1), date(anchor.year + 1, 1, 1)


def period_label(period: str, start: date, end: date) -> str:
    if period == "weekly":
        last = end - timedelta(days=1)
        return week_label(start, last)
    if period == "monthly":
        return format_pattern(start, "MMMM y")
    return str(start.year)


def waste_between(start: date, end: date, limit: int | None = MAX_STREETS) -> dict:
    """{streets, kg, total_kg, total_text} of the collections recorded on [start, end): per
    street (the first `limit`, in the order they were first recorded), and the total of every
    street. The monthly report (sibol/reports) reads its months' figures here too."""
    rows = db.session.execute(
        select(WasteCollection.street, func.sum(WasteCollection.weight_g), func.min(WasteCollection.id))
        .where(WasteCollection.collected_on >= start, WasteCollection.collected_on < end)
        .group_by(WasteCollection.street)
        .order_by(func.min(WasteCollection.id))  # streets in the order they were first recorded
    ).all()
    total = sum(int(r[1] or 0) for r in rows)
    rows = rows[:limit]
    grams = [int(r[1] or 0) for r in rows]
    return {
        "streets": [r[0] for r in rows],
        "kg": [g / 1000 for g in grams],
        "total_kg": total / 1000,
        "total_text": rules.kg_text(total),
    }


def _anchor() -> date | None:
    """The day the periods hold: today where machines weighed waste this year, else the most
    recent collection on record (None: nothing on record)."""
    today = localtime.today()
    if impact.for_scope(impact.Period.year_of(today)).waste_source in ("machines", "mixed"):
        return today
    return db.session.scalar(select(func.max(WasteCollection.collected_on)))


def waste_summary() -> dict:
    """{period: {label, streets, kg, total_kg, total_text}} for weekly, monthly and yearly: the
    total is the impact module's figure for the period (sibol/impact); the breakdown is per
    street, or per machine where machines weighed the waste."""
    anchor = _anchor()
    summary: dict = {}
    for period in PERIODS:
        if anchor is None:
            summary[period] = {"label": "", "streets": [], "kg": [], "total_kg": 0, "total_text": "0"}
            continue
        start, end = period_range(period, anchor)
        figure = impact.for_scope(impact.Period(start, end))
        if figure.waste_source in ("machines", "mixed"):
            parts = machine_waste_between(localtime.utc_start_of(start), localtime.utc_start_of(end))
        else:
            parts = waste_between(start, end)
        total_kg = round(figure.waste_kg, 3)
        parts.update(total_kg=total_kg, total_text=rules.kg_text(round(total_kg * 1000)))
        summary[period] = {"label": period_label(period, start, end), **parts}
    return summary


def energy_of_month(month: date) -> float | None:
    """kWh of the month holding `month` (the impact module's figure), None when nothing is on
    record for it."""
    figure = impact.for_scope(impact.Period.month_of(month))
    if figure.energy_source == "none":
        return None
    kwh = round(figure.energy_kwh, 1)
    return int(kwh) if kwh.is_integer() else kwh  # 120, not 120.0


def _months_back(today: date, back: int) -> date:
    index = today.year * 12 + today.month - 1 - back
    return date(index // 12, index % 12 + 1, 1)


def energy_summary() -> dict:
    """kWh per month (the impact module's figures): the last three months, this year and last,
    where machines report power; else January to March of the two most recent years with typed
    readings."""
    today = localtime.today()
    recent = impact.Period(_months_back(today, 14), _months_back(today, -1))
    if impact.for_scope(recent).energy_source in ("machines", "mixed"):
        months = [_months_back(today, back) for back in (2, 1, 0)]
        years = [today.year - 1, today.year]
        shift = {year: today.year - year for year in years}
    else:
        found = db.session.scalars(
            select(extract("year", EnergyReading.month).label("y"))
            .distinct()
            .order_by(extract("year", EnergyReading.month).desc())
            .limit(2)
        )
        years = sorted(int(y) for y in found)
        months = [date(years[-1] if years else today.year, m, 1) for m in (1, 2, 3)]
        shift = {year: months[0].year - year for year in years}
    series = []
    for year in years:
        values = [energy_of_month(date(m.year - shift[year], m.month, 1)) for m in months]
        if any(v is not None for v in values):
            series.append({"year": year, "kilowatts": values})
    names = [f"{m:%B}" for m in months]
    return {"months": names, "unit": "kWh", "series": series}


def schedule_panel() -> list[dict]:
    return [
        {"area": ", ".join(s.area_names), "staff": s.maintenance_person, "date": s.collection_date}
        for s in upcoming_schedules(3)
    ]


def summary() -> dict:
    # Waste and energy are the impact module's figures (sibol/impact), as on every other page.
    return {
        "waste": waste_summary(),
        "energy": energy_summary(),
        "schedule": schedule_panel(),
        "process": {"stages": list(PROCESS_STAGES), "step_seconds": PROCESS_STEP_SECONDS},
    }


def record_waste(data: dict) -> WasteCollection:
    """data: street, collectedOn (YYYY-MM-DD), weightKg (0 or more)."""
    errors = Errors()
    street = rules.text(errors, data.get("street"), "street", _("Street"))
    collected_on = rules.day(errors, data.get("collectedOn"), "collectedOn", _("Date collected"))
    weight_g = rules.grams(errors, data.get("weightKg"), "weightKg", _("Weight"))
    errors.raise_if_any()
    row = WasteCollection(street=street, collected_on=collected_on, weight_g=weight_g)
    db.session.add(row)
    db.session.commit()
    return row


def record_energy(data: dict) -> EnergyReading:
    """data: month (YYYY-MM), kilowatts (whole, 0 or more); one reading per month."""
    errors = Errors()
    raw = data.get("month")
    month = None
    if isinstance(raw, str) and len(raw.strip()) == 7:
        month = rules.day(errors, raw.strip() + "-01", "month", _("Month"))
    else:
        errors.add("month", _("Month must be a valid month (YYYY-MM)."))
    kilowatts = rules.whole(errors, data.get("kilowatts"), "kilowatts", _("Kilowatts"))
    if "month" in errors.messages:
        errors.messages["month"] = _("Month must be a valid month (YYYY-MM).")
    errors.raise_if_any()
    if db.session.scalar(select(EnergyReading).where(EnergyReading.month == month)) is not None:
        raise Conflict(_("There is already a reading for this month."), field="month")
    row = EnergyReading(month=month, kilowatts=kilowatts)
    db.session.add(row)
    db.session.commit()
    return row
