"""Hourly and daily rollups (kept for good), the latest values, and chart series.

Rollups are kept in step by the ingestion transaction (which holds the machine's write lock),
so a chart over a year reads at most 365 daily rows per metric, whatever the fleet's size.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from flask_babel import gettext as _
from sqlalchemy import Connection, Executable, Table, and_, delete, func, insert, or_, select, update
from sqlalchemy.dialects import mysql, sqlite
from sqlalchemy.engine import Dialect

from ..errors import Invalid
from ..extensions import db
from ..models import utcnow
from ..models.telemetry import METRICS, Reading, Rollup
from .bulk import DriverStatement
from .metrics import SERIES_METRICS

BUCKETS = {"raw": None, "5m": timedelta(minutes=5), "1h": timedelta(hours=1), "1d": timedelta(days=1)}
MAX_RAW_SPAN = timedelta(days=31)  # raw and 5m read raw rows; longer spans use 1h or 1d
MAX_POINTS = 10_000


def hour_start(ts: datetime) -> datetime:
    return ts.replace(minute=0, second=0, microsecond=0)


def day_start(ts: datetime) -> datetime:
    return ts.replace(hour=0, minute=0, second=0, microsecond=0)


def _values(row: dict) -> list[tuple[str, float]]:
    found = [(m, row[m]) for m in METRICS if row.get(m) is not None]
    if row.get("voltage_v") is not None and row.get("current_a") is not None:
        found.append(("power_w", row["voltage_v"] * row["current_a"]))
    return found


def add_readings(machine_id: int, rows: list[dict]) -> None:
    """Fold new readings into the hourly and daily rollups (the caller commits)."""
    acc: dict[tuple[str, datetime, str], list[float]] = {}
    for row in rows:
        for period, start in (("h", hour_start(row["ts"])), ("d", day_start(row["ts"]))):
            for metric, value in _values(row):
                cell = acc.get((period, start, metric))
                if cell is None:
                    acc[(period, start, metric)] = [value, value, value, 1]
                else:
                    cell[0], cell[1] = min(cell[0], value), max(cell[1], value)
                    cell[2] += value
                    cell[3] += 1
    if not acc:
        return
    starts: dict[str, set[datetime]] = defaultdict(set)
    for period, start, _metric in acc:
        starts[period].add(start)
    where = or_(*(and_(Rollup.period == p, Rollup.start.in_(s)) for p, s in starts.items()))
    existing = {
        (r.period, r.start, r.metric): r
        for r in db.session.execute(
            select(
                Rollup.period,
                Rollup.start,
                Rollup.metric,
                Rollup.min,
                Rollup.max,
                Rollup.sum,
                Rollup.count.label("n"),
            ).where(Rollup.machine_id == machine_id, where)
        )
    }
    updates, inserts = [], []
    for (period, start, metric), (lo, hi, total, count) in acc.items():
        key = {"machine_id": machine_id, "period": period, "start": start, "metric": metric}
        old = existing.get((period, start, metric))
        if old is None:
            inserts.append({**key, "min": lo, "max": hi, "sum": total, "count": count})
        else:
            updates.append(
                {
                    **key,
                    "min": min(old.min, lo),
                    "max": max(old.max, hi),
                    "sum": old.sum + total,
                    "count": old.n + count,
                }
            )
    if inserts:
        db.session.execute(insert(Rollup), inserts)
    if updates:
        db.session.execute(update(Rollup), updates)


def _cell_upsert(dialect: Dialect) -> Executable:
    """INSERT of rollup cells that folds into an existing cell (min, max, sum, count)."""
    table = cast(Table, Rollup.__table__)
    if dialect.name == "mysql":
        my = mysql.insert(table)
        return my.on_duplicate_key_update(
            min=func.least(table.c.min, my.inserted.min),
            max=func.greatest(table.c.max, my.inserted.max),
            sum=table.c.sum + my.inserted.sum,
            count=table.c.count + my.inserted.count,
        )
    lite = sqlite.insert(table)
    return lite.on_conflict_do_update(
        index_elements=["machine_id", "period", "metric", "start"],
        set_={
            "min": func.min(table.c.min, lite.excluded.min),
            "max": func.max(table.c.max, lite.excluded.max),
            "sum": table.c.sum + lite.excluded.sum,
            "count": table.c.count + lite.excluded.count,
        },
    )


CELL_UPSERT = DriverStatement(
    cast(Table, Rollup.__table__),
    _cell_upsert,
    ("machine_id", "period", "metric", "start", "min", "max", "sum", "count"),
)


def add_many(connection: Connection, new_rows: dict[int, list[dict]]) -> int:
    """Fold many machines' new readings into the rollups (the caller commits); returns the cells.

    The readings are summed per cell (machine, period, metric, start) in Python first, then every
    cell is one row of one upsert run through the driver, in primary-key order (two writers take
    the cells' row locks in the same order)."""
    acc: dict[tuple[int, str, str, datetime], list] = {}
    for machine_id, rows in new_rows.items():
        for row in rows:
            hour, day = hour_start(row["ts"]), day_start(row["ts"])
            for metric, value in _values(row):
                for key in ((machine_id, "h", metric, hour), (machine_id, "d", metric, day)):
                    cell = acc.get(key)
                    if cell is None:
                        acc[key] = [value, value, value, 1]
                    else:
                        if value < cell[0]:
                            cell[0] = value
                        if value > cell[1]:
                            cell[1] = value
                        cell[2] += value
                        cell[3] += 1
    CELL_UPSERT.executemany(connection, [(*key, *cell) for key, cell in sorted(acc.items())])
    return len(acc)


def purge_raw(days: int, *, now: datetime | None = None, batch: int = 10_000) -> int:
    """Delete raw readings older than `days` (rollups stay). Returns how many went."""
    cutoff = (now or utcnow()) - timedelta(days=days)
    removed = 0
    while True:
        ids = list(db.session.scalars(select(Reading.id).where(Reading.ts < cutoff).limit(batch)))
        if not ids:
            break
        db.session.execute(delete(Reading).where(Reading.id.in_(ids)))
        db.session.commit()
        removed += len(ids)
    return removed


def latest(machine_id: int) -> dict[str, dict]:
    """{metric: {"value", "ts"}} of each metric's newest raw reading."""
    found: dict[str, dict] = {}
    columns = [getattr(Reading, m) for m in METRICS]
    recent = db.session.connection().execute(
        select(Reading.ts, *columns)
        .where(Reading.machine_id == machine_id)
        .order_by(Reading.ts.desc())
        .limit(24)
    )
    for ts, *values in recent:
        for metric, value in zip(METRICS, values, strict=True):
            if value is not None and metric not in found:
                found[metric] = {"value": value, "ts": ts}
    for metric in METRICS:
        if metric in found:
            continue
        column = getattr(Reading, metric)
        found_row = db.session.execute(
            select(Reading.ts, column)
            .where(Reading.machine_id == machine_id, column.is_not(None))
            .order_by(Reading.ts.desc())
            .limit(1)
        ).first()
        if found_row is not None:
            found[metric] = {"value": found_row[1], "ts": found_row[0]}
    return {m: found[m] for m in METRICS if m in found}


@dataclass
class Point:
    ts: datetime
    min: float
    max: float
    avg: float
    count: int


def check_series_args(
    metric: str | None, bucket: str | None, start: datetime, end: datetime
) -> tuple[str, str]:
    if not metric:
        raise Invalid(_("metric is required."), field="metric")
    if metric not in SERIES_METRICS:
        raise Invalid(_("metric must be one of %(value)s.", value=", ".join(SERIES_METRICS)), field="metric")
    bucket = bucket or "1h"
    if bucket not in BUCKETS:
        raise Invalid(_("bucket must be raw, 5m, 1h or 1d."), field="bucket")
    if end <= start:
        raise Invalid(_("to must be later than from."), field="to")
    if bucket in ("raw", "5m") and end - start > MAX_RAW_SPAN:
        raise Invalid(_("raw and 5m series span at most 31 days; use 1h or 1d."), field="bucket")
    if bucket == "1h" and end - start > timedelta(days=400):
        raise Invalid(_("1h series span at most 400 days; use 1d."), field="bucket")
    return metric, bucket


def series(machine_id: int, metric: str, bucket: str, start: datetime, end: datetime) -> list[Point]:
    """Points in [start, end): raw readings, 5-minute groups of them, or the rollups."""
    if bucket in ("1h", "1d"):
        # Core, not ORM: a year of points reads without per-row ORM bookkeeping.
        rows = db.session.connection().execute(
            select(Rollup.start, Rollup.min, Rollup.max, Rollup.sum, Rollup.count.label("n"))
            .where(
                Rollup.machine_id == machine_id,
                Rollup.period == bucket[-1],
                Rollup.metric == metric,
                Rollup.start >= (hour_start(start) if bucket == "1h" else day_start(start)),
                Rollup.start < end,
            )
            .order_by(Rollup.start)
            .limit(MAX_POINTS)
        )
        return [Point(start_, lo, hi, total / n, n) for start_, lo, hi, total, n in rows]
    raw = _raw_values(machine_id, metric, start, end)
    if bucket == "raw":
        return [Point(ts, v, v, v, 1) for ts, v in raw]
    groups: dict[datetime, list[float]] = {}
    for ts, value in raw:
        key = ts.replace(minute=ts.minute - ts.minute % 5, second=0, microsecond=0)
        groups.setdefault(key, []).append(value)
    return [Point(k, min(v), max(v), sum(v) / len(v), len(v)) for k, v in groups.items()]


def _raw_values(machine_id: int, metric: str, start: datetime, end: datetime) -> list[tuple[datetime, float]]:
    if metric == "power_w":
        value = Reading.voltage_v * Reading.current_a
    else:
        value = getattr(Reading, metric)
    rows = db.session.execute(
        select(Reading.ts, value)
        .where(Reading.machine_id == machine_id, Reading.ts >= start, Reading.ts < end, value.is_not(None))
        .order_by(Reading.ts)
        .limit(MAX_POINTS)
    )
    return [(r[0], float(r[1])) for r in rows if r[1] is not None]


def fleet_totals(period: str, start: datetime, end: datetime) -> dict[str, float]:
    """Waste fed (kg) and energy (kWh) over all reporting machines, from the rollups."""
    from sqlalchemy import func

    waste = db.session.scalar(
        select(func.sum(Rollup.sum)).where(
            Rollup.period == period, Rollup.metric == "weight_kg", Rollup.start >= start, Rollup.start < end
        )
    )
    power = db.session.scalar(
        select(func.sum(Rollup.sum / Rollup.count)).where(
            Rollup.period == "h", Rollup.metric == "power_w", Rollup.start >= start, Rollup.start < end
        )
    )
    return {"waste_kg": float(waste or 0), "energy_kwh": float(power or 0) / 1000}
