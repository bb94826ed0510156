"""Hourly and daily rollups (kept for good), the latest values, and chart series.

Rollups are kept in step by the ingestion transaction (which holds the machine's write lock),
so a chart over a year reads at most 365 daily rows per metric, whatever the fleet's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from flask_babel import gettext as _
from sqlalchemy import Connection, Executable, Table, delete, func, select
from sqlalchemy.dialects import mysql, sqlite
from sqlalchemy.engine import Dialect

from ..errors import Invalid
from ..extensions import db
from ..models import utcnow
from ..models.telemetry import METRICS, ROLLUP_CELL_NAMES, SERIES_METRICS, Reading, Rollup
from .bulk import DriverStatement

BUCKETS = {"raw": None, "5m": timedelta(minutes=5), "1h": timedelta(hours=1), "1d": timedelta(days=1)}
MAX_RAW_SPAN = timedelta(days=31)  # raw and 5m read raw rows; longer spans use 1h or 1d
MAX_POINTS = 10_000


def hour_start(ts: datetime) -> datetime:
    return ts.replace(minute=0, second=0, microsecond=0)


def day_start(ts: datetime) -> datetime:
    return ts.replace(hour=0, minute=0, second=0, microsecond=0)


# A rollup row's cells as one flat list: each series metric's min, max, sum and n, four apart.
CELL_COLUMNS = tuple(name for names in ROLLUP_CELL_NAMES.values() for name in names)
ROLLUP_COLUMNS = ("machine_id", "period", "start", *CELL_COLUMNS)
_OFFSET = {metric: 4 * i for i, metric in enumerate(SERIES_METRICS)}
_EMPTY = [None, None, None, 0] * len(SERIES_METRICS)
_POWER = _OFFSET["power_w"]


def _slots(row: dict) -> list[tuple[int, float]]:
    """(offset in the flat cells, value) of every series metric the reading carries, power_w
    (voltage x current) when it has both."""
    found = [(_OFFSET[m], row[m]) for m in METRICS if row.get(m) is not None]
    if row.get("voltage_v") is not None and row.get("current_a") is not None:
        found.append((_POWER, row["voltage_v"] * row["current_a"]))
    return found


def _fold(cells: list, slots: list[tuple[int, float]]) -> None:
    """Fold one reading's values (its _slots) into a row's flat cells."""
    for i, value in slots:
        if cells[i + 3]:
            if value < cells[i]:
                cells[i] = value
            if value > cells[i + 1]:
                cells[i + 1] = value
            cells[i + 2] += value
            cells[i + 3] += 1
        else:
            cells[i] = cells[i + 1] = cells[i + 2] = value
            cells[i + 3] = 1


def reading_cells(row: dict) -> list | None:
    """One reading's cells in ROLLUP_COLUMNS order after the key (n = 0 and NULLs for the
    metrics it lacks), or None when it carries no value: what the single-reading path upserts
    into its hour and its day."""
    slots = _slots(row)
    if not slots:
        return None
    cells = list(_EMPTY)
    _fold(cells, slots)
    return cells


def add_readings(machine_id: int, rows: list[dict]) -> None:
    """Fold new readings into the hourly and daily rollups (the caller commits)."""
    add_many(db.session.connection(), {machine_id: rows})


def _row_upsert(dialect: Dialect) -> Executable:
    """INSERT of rollup rows that folds each metric's cells into an existing row's.

    A metric the incoming row lacks (n = 0, NULL min/max/sum) leaves the stored cells as they
    are, and a stored metric with n = 0 takes the incoming ones: LEAST, GREATEST and + give NULL
    when either side is NULL, so COALESCE falls back to whichever side has a value. No
    assignment reads a column another one sets (MariaDB applies them left to right)."""
    table = cast(Table, Rollup.__table__)
    old = table.c
    if dialect.name == "mysql":
        my = mysql.insert(table)
        return my.on_duplicate_key_update(_folded(old, my.inserted, func.least, func.greatest))
    lite = sqlite.insert(table)
    return lite.on_conflict_do_update(
        index_elements=["machine_id", "period", "start"],
        set_=dict(_folded(old, lite.excluded, func.min, func.max)),
    )


def _folded(old: Any, new: Any, lowest: Any, highest: Any) -> list[tuple[str, Any]]:
    """(column, value) of every cell: the stored cell `old` folded with the incoming `new`."""
    out: list[tuple[str, Any]] = []
    for lo, hi, total, n in ROLLUP_CELL_NAMES.values():
        out += [
            (lo, func.coalesce(lowest(old[lo], new[lo]), old[lo], new[lo])),
            (hi, func.coalesce(highest(old[hi], new[hi]), old[hi], new[hi])),
            (total, func.coalesce(old[total] + new[total], old[total], new[total])),
            (n, old[n] + new[n]),
        ]
    return out


ROW_UPSERT = DriverStatement(cast(Table, Rollup.__table__), _row_upsert, ROLLUP_COLUMNS)


def add_many(connection: Connection, new_rows: dict[int, list[dict]]) -> int:
    """Fold many machines' new readings into the rollups (the caller commits); returns the rows.

    The readings are summed per row (machine, period, start) in Python first, then every row is
    one row of one upsert run through the driver, in primary-key order (two writers take the
    rows' locks in the same order)."""
    acc: dict[tuple[int, str, datetime], list] = {}
    for machine_id, rows in new_rows.items():
        for row in rows:
            slots = _slots(row)
            if not slots:
                continue
            ts = row["ts"]
            for key in ((machine_id, "h", hour_start(ts)), (machine_id, "d", day_start(ts))):
                cells = acc.get(key)
                if cells is None:
                    cells = acc[key] = list(_EMPTY)
                _fold(cells, slots)
    ROW_UPSERT.executemany(connection, [(*key, *cells) for key, cells in sorted(acc.items())])
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
        cells = Rollup.cells(metric)
        rows = db.session.connection().execute(
            select(Rollup.start, *cells)
            .where(
                Rollup.machine_id == machine_id,
                Rollup.period == bucket[-1],
                Rollup.start >= (hour_start(start) if bucket == "1h" else day_start(start)),
                Rollup.start < end,
                cells.n > 0,  # the periods in which the machine reported this metric
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
