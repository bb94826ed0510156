"""The dashboard's waste and energy panels from machine readings, where machines report.

Same shapes as the dashboard's own figures (so its charts and tables need no change); None when
no machine has reported in the period, and the dashboard then shows its stored sample rows.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from sqlalchemy import func, select

from ..extensions import db
from ..models import Machine, utcnow
from ..models.telemetry import Rollup

MAX_MACHINES = 12


def _period(period: str, today: date) -> tuple[date, date, str]:
    if period == "weekly":
        start = today - timedelta(days=today.weekday())
        end = start + timedelta(days=7)
        last = end - timedelta(days=1)
        return start, end, f"{start:%b} {start.day} – {last:%b} {last.day}, {last.year}"
    if period == "monthly":
        start = today.replace(day=1)
        return start, date(start.year + (start.month == 12), start.month % 12 + 1, 1), f"{start:%B %Y}"
    return date(today.year, 1, 1), date(today.year + 1, 1, 1), str(today.year)


def _text(kg: float) -> str:
    return f"{kg:.3f}".rstrip("0").rstrip(".") or "0"


def waste_from_readings(periods: tuple[str, ...]) -> dict | None:
    """{period: {label, streets (machine names), kg, total_kg, total_text, by}} or None."""
    today = utcnow().date()
    year_start = datetime(today.year, 1, 1)
    if not db.session.scalar(
        select(func.count()).where(
            Rollup.period == "d", Rollup.metric == "weight_kg", Rollup.start >= year_start
        )
    ):
        return None
    summary = {}
    for period in periods:
        start, end, label = _period(period, today)
        rows = db.session.execute(
            select(Machine.name, func.sum(Rollup.sum))
            .join(Machine, Machine.id == Rollup.machine_id)
            .where(
                Rollup.period == "d",
                Rollup.metric == "weight_kg",
                Rollup.start >= datetime.combine(start, datetime.min.time()),
                Rollup.start < datetime.combine(end, datetime.min.time()),
            )
            .group_by(Machine.id, Machine.name)
            .order_by(func.sum(Rollup.sum).desc())
            .limit(MAX_MACHINES)
        ).all()
        kg = [round(float(total or 0), 3) for _name, total in rows]
        summary[period] = {
            "label": label,
            "streets": [name for name, _total in rows],
            "kg": kg,
            "total_kg": round(sum(kg), 3),
            "total_text": _text(sum(kg)),
            "by": "Machine",
        }
    return summary


def _months_back(today: date, back: int) -> date:
    index = today.year * 12 + today.month - 1 - back
    return date(index // 12, index % 12 + 1, 1)


def energy_from_readings() -> dict | None:
    """kWh of the last three months, this year and last, from the hourly power rollups."""
    today = utcnow().date()
    months = [_months_back(today, back) for back in (2, 1, 0)]
    first = datetime(months[0].year - 1, months[0].month, 1)
    rows = db.session.execute(
        select(Rollup.start, Rollup.sum, Rollup.count).where(
            Rollup.period == "h", Rollup.metric == "power_w", Rollup.start >= first
        )
    ).all()
    if not rows:
        return None
    kwh: dict[tuple[int, int], float] = {}
    for start, total, count in rows:
        key = (start.year, start.month)
        kwh[key] = kwh.get(key, 0.0) + total / count / 1000
    series = []
    for year in (today.year - 1, today.year):
        values = [kwh.get((m.year - (today.year - year), m.month)) for m in months]
        if any(v is not None for v in values):
            series.append({"year": year, "kilowatts": [None if v is None else round(v, 1) for v in values]})
    return {"months": [f"{m:%B}" for m in months], "unit": "kWh", "series": series}
