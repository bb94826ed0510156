"""The machines' waste per machine, for the dashboard's and the monthly report's breakdowns.

The totals (and energy) are the impact module's (sibol/impact); this only splits the weighed
waste per machine where machines weigh it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select

from ..extensions import db
from ..models import Machine
from ..models.telemetry import Rollup

MAX_MACHINES = 12


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
