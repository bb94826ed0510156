"""The dashboard's waste and energy panels from machine readings, where machines report.

Same shapes as the dashboard's own figures (so its charts and tables need no change); None when
no machine has reported in the period, and the dashboard then shows its stored sample rows.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from sqlalchemy import func, select

from ..extensions import db
from ..i18n import localtime
from ..models import Machine
from ..models.telemetry import Rollup

MAX_MACHINES = 12


def _period(period: str, today: date) -> tuple[date, date, str]:
    if period == "weekly":
        start = today - timedelta(days=today.weekday())
        end = start + timedelta(days=7)
        last = end - timedelta(days=1)
        return start, end, localtime.week_label(start, last)
    if period == "monthly":
        start = today.replace(day=1)
        return (
            start,
            date(start.year + (start.month == 12), start.month % 12 + 1, 1),
            localtime.format_pattern(start, "MMMM y"),
        )
    return date(today.year, 1, 1), date(today.year + 1, 1, 1), str(today.year)


def _text(kg: float) -> str:
    return f"{kg:.3f}".rstrip("0").rstrip(".") or "0"


def _day_ceil(ts: datetime) -> datetime:
    day = ts.replace(hour=0, minute=0, second=0, microsecond=0)
    return day if day == ts else day + timedelta(days=1)


def machine_waste_between(start: datetime, end: datetime, limit: int | None = MAX_MACHINES) -> dict:
    """{streets (machine names), kg, total_kg, total_text, by} weighed in [start, end), instants
    in naive UTC as stored: the whole UTC days from the daily rollups, the hours at either edge
    (a local day starts mid-way through a UTC one) from the hourly ones. Machines heaviest first
    (the first `limit`); the total counts every machine. The monthly report reads this too."""
    first_day, last_day = _day_ceil(start), end.replace(hour=0, minute=0, second=0, microsecond=0)
    if first_day >= last_day:  # no whole UTC day inside: hours only
        spans = [("h", start, end)]
    else:
        spans = [("h", start, first_day), ("d", first_day, last_day), ("h", last_day, end)]
    totals: dict[tuple[int, str], float] = {}
    weight = Rollup.cells("weight_kg")
    for period, lo, hi in spans:
        if lo >= hi:
            continue
        for machine_id, name, total in db.session.execute(
            select(Machine.id, Machine.name, func.sum(weight.sum))
            .join(Machine, Machine.id == Rollup.machine_id)
            .where(
                Rollup.period == period,
                weight.n > 0,  # the machines that weighed waste, not those that only reported
                Rollup.start >= lo,
                Rollup.start < hi,
            )
            .group_by(Machine.id, Machine.name)
        ):
            totals[(machine_id, name)] = totals.get((machine_id, name), 0.0) + float(total or 0)
    ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0][0]))
    total_kg = round(sum(round(kg, 3) for _key, kg in ranked), 3)
    ranked = ranked[:limit]
    return {
        "streets": [name for (_id, name), _kg in ranked],
        "kg": [round(kg, 3) for _key, kg in ranked],
        "total_kg": total_kg,
        "total_text": _text(total_kg),
        "by": "Machine",
    }


def has_weights_between(start: datetime, end: datetime | None = None) -> bool:
    """Whether any machine weighed waste in [start, end) (naive UTC; no end: until now)."""
    query = select(Rollup.machine_id).where(
        Rollup.period == "h", Rollup.cells("weight_kg").n > 0, Rollup.start >= start
    )
    if end is not None:
        query = query.where(Rollup.start < end)
    return db.session.scalar(query.limit(1)) is not None


def waste_from_readings(periods: tuple[str, ...]) -> dict | None:
    """{period: {label, streets (machine names), kg, total_kg, total_text, by}} or None.
    Periods are the barangay's week, month and year (SIBOL_TIMEZONE)."""
    today = localtime.today()
    if not has_weights_between(localtime.utc_start_of(date(today.year, 1, 1))):
        return None
    summary = {}
    for period in periods:
        start, end, label = _period(period, today)
        figures = machine_waste_between(localtime.utc_start_of(start), localtime.utc_start_of(end))
        summary[period] = {"label": label, **figures}
    return summary


def _months_back(today: date, back: int) -> date:
    index = today.year * 12 + today.month - 1 - back
    return date(index // 12, index % 12 + 1, 1)


def kwh_by_month(start: datetime, end: datetime) -> dict[tuple[int, int], float]:
    """{(year, month) in the barangay's zone: kWh} from the hourly power rollups in [start, end)
    (naive UTC): each hour's mean power for an hour. Months with no rollup are absent."""
    power = Rollup.cells("power_w")
    rows = db.session.execute(
        select(Rollup.start, power.sum, power.n)
        .where(Rollup.period == "h", power.n > 0, Rollup.start >= start, Rollup.start < end)
        .order_by(Rollup.start, Rollup.machine_id)
    ).all()
    kwh: dict[tuple[int, int], float] = {}
    for hour, total, count in rows:
        local = localtime.to_local(hour)
        key = (local.year, local.month)
        kwh[key] = kwh.get(key, 0.0) + total / count / 1000
    return kwh


def energy_from_readings() -> dict | None:
    """kWh of the last three months, this year and last, from the hourly power rollups
    (months of the barangay's zone)."""
    today = localtime.today()
    months = [_months_back(today, back) for back in (2, 1, 0)]
    first = localtime.utc_start_of(date(months[0].year - 1, months[0].month, 1))
    kwh = kwh_by_month(first, localtime.utc_start_of(_months_back(today, -1)))
    if not kwh:
        return None
    series = []
    for year in (today.year - 1, today.year):
        values = [kwh.get((m.year - (today.year - year), m.month)) for m in months]
        if any(v is not None for v in values):
            series.append({"year": year, "kilowatts": [None if v is None else round(v, 1) for v in values]})
    return {"months": [f"{m:%B}" for m in months], "unit": "kWh", "series": series}
