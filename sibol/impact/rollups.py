"""The one place the impact figures read the machines' telemetry rollups.

An hourly rollup row holds, per machine and hour, each metric's sum and count (`Rollup.cells`);
a metric the machine did not report that hour has a count of 0. Both functions answer per
barangay (through the machine's barangay) for instants in naive UTC.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select

from ..extensions import db
from ..models import Machine
from ..models.telemetry import Rollup


def _hourly(
    metric: str, mean: bool, start: datetime, end: datetime, ids: list[int] | None
) -> dict[int, float]:
    """{barangay id: the sum over hours of the metric's sum (or mean, with `mean`)}."""
    cells = Rollup.cells(metric)
    value = cells.sum / cells.n if mean else cells.sum
    query = (
        select(Machine.barangay_id, func.sum(value))
        .join(Machine, Machine.id == Rollup.machine_id)
        .where(Rollup.period == "h", cells.n > 0, Rollup.start >= start, Rollup.start < end)
        .group_by(Machine.barangay_id)
    )
    if ids is not None:
        query = query.where(Machine.barangay_id.in_(ids))
    return {int(b): float(total or 0) for b, total in db.session.execute(query) if b is not None}


def weighed_kg(start: datetime, end: datetime, ids: list[int] | None) -> dict[int, float]:
    """{barangay id: kg weighed by its machines in [start, end)}; barangays with no weighing are
    absent."""
    return _hourly("weight_kg", False, start, end, ids)


def power_kwh(start: datetime, end: datetime, ids: list[int] | None) -> dict[int, float]:
    """{barangay id: kWh its machines produced in [start, end)}: each hour's mean power (W) for
    one hour; barangays with no power reading are absent."""
    wh = _hourly("power_w", True, start, end, ids)
    return {b: value / 1000 for b, value in wh.items()}
