"""One reading, the way a controller sends it: stored in four statements and one commit.

The same outcome as ingest.store() for a batch of one (the key re-checked under the machine's
write lock, the duplicate rule, the hourly and daily rollups, alerts and notifications), in the
fewest round trips each database allows, sent straight to the driver (no ORM, no statement
compilation: at a few hundred readings a second that bookkeeping was a third of the work):
  1. UPDATE the device's row WHERE its key is still `key_hash`: the machine's write lock, and a
     key revoked or replaced since keys.authenticate() refuses the reading here;
  2. INSERT the reading, doing nothing on a duplicate (machine, ts) (0 rows: counted, not stored);
  3. the 18 rollup cells (9 metrics, hour and day) as one multi-row upsert;
  4. one SELECT of the machine's own ranges and open alerts. Only when an alert is open or a value
     is out of range does alerts.evaluate() run (the ORM path; the common reading opens none).

On SQLite, where one writer at a time holds the whole database, these writers queue on a lock
file beside the database (and a thread lock within the process) instead of on SQLite's busy
handler, which polls with sleeps of 1 to 100 ms: the next writer starts the moment the last one
commits. On MariaDB each machine's row lock is enough, and concurrent commits share their log
flush (InnoDB's group commit), so gunicorn's threads (gunicorn.conf.py) overlap their waits.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import DateTime

from ..errors import Unauthorized
from ..extensions import db
from ..models.telemetry import METRICS
from . import alerts, rollups
from .metrics import DEFAULT_RANGES

_TOUCH_KEY = (
    "UPDATE device_keys SET last_seen_at = ?, last_reading_at = CASE WHEN last_reading_at IS NULL"
    " OR last_reading_at < ? THEN ? ELSE last_reading_at END WHERE machine_id = ? AND key_hash = ?"
)
_COLUMNS = ", ".join(("machine_id", "ts", *METRICS))
_MARKS = ", ".join("?" for _ in range(2 + len(METRICS)))
_INSERT_READING = {
    "sqlite": f"INSERT INTO telemetry_readings ({_COLUMNS}) VALUES ({_MARKS}) ON CONFLICT DO NOTHING",  # noqa: S608 - our column names
    # IGNORE turns only the duplicate (machine_id, ts) into "0 rows": every value was checked before.
    "mysql": f"INSERT IGNORE INTO telemetry_readings ({_COLUMNS}) VALUES ({_MARKS})",  # noqa: S608
}
_ROLLUP_INSERT = (
    "INSERT INTO telemetry_rollups (machine_id, period, metric, start, min, max, sum, count)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
_UPSERT_ROLLUPS = {
    "sqlite": _ROLLUP_INSERT + " ON CONFLICT (machine_id, period, metric, start) DO UPDATE SET"
    " min = min(telemetry_rollups.min, excluded.min), max = max(telemetry_rollups.max, excluded.max),"
    " sum = telemetry_rollups.sum + excluded.sum, count = telemetry_rollups.count + excluded.count",
    # mysqlclient sends the rows as one multi-row INSERT (its executemany needs every value bound).
    "mysql": _ROLLUP_INSERT + " ON DUPLICATE KEY UPDATE min = LEAST(min, VALUES(min)),"
    " max = GREATEST(max, VALUES(max)), sum = sum + VALUES(sum), count = count + VALUES(count)",
}
_RANGES_AND_OPEN_ALERTS = (
    "SELECT metric, low, high, 0 FROM telemetry_thresholds WHERE machine_id = ?"
    " UNION ALL SELECT metric, NULL, NULL, 1 FROM telemetry_alerts WHERE machine_id = ? AND closed_at IS NULL"
)


class _Driver:
    """The statements in the driver's own parameter style, and its way of writing a time."""

    def __init__(self, dialect: Any) -> None:
        self.kind = "sqlite" if dialect.name == "sqlite" else "mysql"
        mark = (lambda sql: sql) if dialect.paramstyle == "qmark" else (lambda sql: sql.replace("?", "%s"))
        self.touch_key = mark(_TOUCH_KEY)
        self.insert_reading = mark(_INSERT_READING[self.kind])
        self.upsert_rollups = mark(_UPSERT_ROLLUPS[self.kind])
        self.ranges_and_alerts = mark(_RANGES_AND_OPEN_ALERTS)
        # SQLite keeps times as text in SQLAlchemy's format: the same text, or (machine, ts) would
        # not meet the rows written through the ORM.
        self.time = DateTime().bind_processor(dialect) or (lambda value: value)


_drivers: dict[str, _Driver] = {}
_turn_lock = threading.Lock()
_turn_files: dict[tuple[int, str], int] = {}  # (process id, database file) -> open lock file


@contextmanager
def _writers_turn(conn: Any) -> Iterator[None]:
    """On a SQLite file, wait for this writer's turn among the lean writers of every process."""
    path = conn.engine.url.database if conn.dialect.name == "sqlite" else None
    if not path or path == ":memory:":
        yield
        return
    with _turn_lock:
        key = (os.getpid(), path)  # a forked worker opens its own
        fd = _turn_files.get(key)
        if fd is None:
            fd = _turn_files[key] = os.open(f"{path}-writers.lock", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)


def store_one(machine_id: int, key_hash: str, reading: dict, *, now: datetime) -> tuple[int, int, int]:
    """Store one parsed reading; (accepted, duplicates, notifications created). Commits."""
    conn = db.session.connection()
    driver = _drivers.get(conn.dialect.name)
    if driver is None:
        driver = _drivers[conn.dialect.name] = _Driver(conn.dialect)
    with _writers_turn(conn):
        return _store(conn, driver, machine_id, key_hash, reading, now)


def _store(conn: Any, driver: _Driver, machine_id: int, key_hash: str, reading: dict, now: datetime):
    cursor = conn.connection.dbapi_connection.cursor()
    try:
        ts = reading["ts"]
        at = driver.time(ts)
        cursor.execute(driver.touch_key, (driver.time(now), at, at, machine_id, key_hash))
        if not cursor.rowcount:  # revoked or replaced since it was checked
            db.session.rollback()
            from .keys import forget

            forget(key_hash)
            raise Unauthorized(_("Unknown or revoked device key."))
        row = {"machine_id": machine_id, **dict.fromkeys(METRICS), **reading}
        cursor.execute(driver.insert_reading, (machine_id, at, *(row[m] for m in METRICS)))
        if not cursor.rowcount:
            db.session.commit()  # the key's last_seen_at: the device did report
            return 0, 1, 0
        values = rollups._values(row)  # noqa: SLF001 - this feature's own helper
        cursor.executemany(
            driver.upsert_rollups,
            [
                (machine_id, period, metric, start, value, value, value, 1)
                for period, start in (
                    ("h", driver.time(rollups.hour_start(ts))),
                    ("d", driver.time(rollups.day_start(ts))),
                )
                for metric, value in values
            ],
        )
        cursor.execute(driver.ranges_and_alerts, (machine_id, machine_id))
        found = cursor.fetchall()
    finally:
        cursor.close()
    notified = alerts.evaluate(machine_id, [row], now=now) if _may_alert(found, row) else 0
    db.session.commit()
    return 1, 0, notified


def _may_alert(found: list, row: dict) -> bool:
    """Whether the reading can open or close an alert: an alert is open, or a value is out of
    the machine's range (its own, else the default)."""
    ranges = dict(DEFAULT_RANGES)
    for metric, low, high, is_alert in found:
        if is_alert:
            return True
        ranges[metric] = (low, high)
    for metric in METRICS:
        value = row[metric]
        if value is not None and not ranges[metric][0] <= value <= ranges[metric][1]:
            return True
    return False
