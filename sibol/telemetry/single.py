"""One reading, the way a controller sends it: stored in four statements and one commit.

The same outcome as ingest.store() for a batch of one (the key re-checked under the machine's
write lock, the duplicate rule, the hourly and daily rollups, alerts and notifications), in the
fewest round trips each database allows, sent straight to the driver (no ORM, no statement
compilation: at a few hundred readings a second that bookkeeping was a third of the work):
  1. UPDATE the device's row WHERE its key is still `key_hash`: the machine's write lock, and a
     key revoked or replaced since keys.authenticate() refuses the reading here;
  2. INSERT the reading, doing nothing on a duplicate (machine, ts) (0 rows: counted, not stored);
  3. the two rollup rows (its hour's and its day's, every metric's cells) as one upsert;
  4. one SELECT of the machine's own ranges and open alerts. When an alert is open or a value is
     out of range (the reading may open or close one) this transaction is rolled back and the
     caller stores the reading through ingest.store(), with alerts.evaluate() and notifications.
     The common reading opens none.

Each worker thread keeps one database connection of its own for this (taken from the engine
once, with the engine's connect-time settings): a request then costs no pool check-out, no ping
and no rollback on check-in, three round trips fewer than through the pool. A connection that has
gone away (a restarted server, a Galera node down behind HAProxy) is replaced and the reading
tried again; a commit whose answer was lost meets the duplicate rule, so nothing is stored twice.

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
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.exc import DBAPIError

from ..extensions import db
from ..models.telemetry import METRICS
from . import rollups
from .bulk import VALUES_GROUP
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
        # The rollups' own upsert (rollups.ROW_UPSERT), compiled once, in the driver's style.
        self.upsert_rollups = rollups.ROW_UPSERT.sql(dialect)
        self.ranges_and_alerts = mark(_RANGES_AND_OPEN_ALERTS)
        # MariaDB: the first three statements travel together, then the rollups with the COMMIT.
        self.first_trip = ";\n".join((self.touch_key, self.insert_reading, self.ranges_and_alerts))
        self._upserts: dict[int, str] = {}
        # SQLite keeps times as text in SQLAlchemy's format (SQLite's own DateTime type, with the
        # microseconds): the same text, or (machine, ts) and a rollup's start would not meet the
        # rows written through the ORM. MariaDB reads ISO text as a DATETIME; sent as text, a
        # reading's times cost the driver no conversion of its own (which took a third of the
        # driver's time).
        if self.kind == "sqlite":
            self.time = DateTime().dialect_impl(dialect).bind_processor(dialect) or (lambda value: value)
        else:
            self.time = lambda value: value.isoformat(" ")

    def upsert_and_commit(self, rows: int) -> str:
        """MariaDB: the rollup upsert of `rows` rows written out as one statement, then COMMIT."""
        sql = self._upserts.get(rows)
        if sql is None:
            group = VALUES_GROUP.search(self.upsert_rollups)
            if group is None:
                raise ValueError("the rollup upsert has no VALUES group")
            one = group.group()[len("VALUES ") :]
            head, tail = self.upsert_rollups[: group.start()], self.upsert_rollups[group.end() :]
            sql = self._upserts[rows] = f"{head}VALUES {', '.join([one] * rows)}{tail};\nCOMMIT"
        return sql


_drivers: dict[str, _Driver] = {}
_turn_lock = threading.Lock()
_turn_files: dict[tuple[int, str], int] = {}  # (process id, database file) -> open lock file
_held = threading.local()  # this thread's own connection: (engine, process id, pool proxy, since)
RECYCLE_SECONDS = 3600  # as the engine's pool_recycle: older than this, a connection is replaced
MYSQL_OPTION_MULTI_STATEMENTS_ON = 0  # mysql_set_server_option()
DUPLICATE, REFUSED, GENERAL = (0, 1, 0), "refused", "general"
ATTEMPTS_AFTER_DISCONNECT = 3


@contextmanager
def writers_turn(engine: Any) -> Iterator[None]:
    """On a SQLite file, wait for this writer's turn among the lean writers of every process."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
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


def held_connection(engine: Any) -> Any:
    """This thread's own DBAPI connection to `engine` (one per thread, replaced with the engine)."""
    held = getattr(_held, "value", None)
    if held is not None and held[0] is engine and held[1] == os.getpid():
        if time.monotonic() - held[3] < RECYCLE_SECONDS:
            return held[2].dbapi_connection
    _forget_connection()
    proxy = engine.raw_connection()  # checked out through the pool: its connect-time settings
    proxy.detach()  # ours from now on, closed by _forget_connection
    if engine.dialect.name != "sqlite" and proxy.dbapi_connection is not None:
        # Several statements a round trip, on this connection only: it runs nothing but the
        # constant statements above, with every value escaped by the driver.
        proxy.dbapi_connection.set_server_option(MYSQL_OPTION_MULTI_STATEMENTS_ON)
    _held.value = (engine, os.getpid(), proxy, time.monotonic())
    return proxy.dbapi_connection


def _forget_connection() -> None:
    held, _held.value = getattr(_held, "value", None), None
    if held is not None and held[1] == os.getpid():
        try:
            held[2].close()
        except Exception:  # noqa: BLE001, S110 - it is being thrown away
            pass


def store_one(machine_id: int, key_hash: str, reading: dict, *, now: datetime) -> tuple[int, int, int] | str:
    """Store one parsed reading: (accepted, duplicates, 0), or REFUSED (the key is no longer the
    machine's: nothing stored), or GENERAL (an alert may open or close: nothing stored, the caller
    stores it through ingest.store). Commits. Database errors arrive as SQLAlchemy's DBAPIError
    (so the retry of a deadlock and the 503 of a busy database apply as everywhere)."""
    engine = db.engine
    if engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:"):
        return GENERAL  # one in-memory database shared through the pool: no connection of our own
    driver = driver_for(engine)
    dbapi_error = engine.dialect.loaded_dbapi.Error
    for attempt in range(1, ATTEMPTS_AFTER_DISCONNECT + 1):
        conn = held_connection(engine)
        try:
            if driver.kind == "mysql":
                return _store_in_two_trips(conn, driver, machine_id, key_hash, reading, now)
            with writers_turn(engine):
                return _store(conn, driver, machine_id, key_hash, reading, now)
        except dbapi_error as err:
            gone = engine.dialect.is_disconnect(err, conn, None)
            if gone:
                _forget_connection()
            else:
                rollback_quietly(conn)
            if gone and attempt < ATTEMPTS_AFTER_DISCONNECT:
                continue
            raise DBAPIError.instance(
                None, None, err, dbapi_error, connection_invalidated=gone, dialect=engine.dialect
            ) from err
        except BaseException:
            rollback_quietly(conn)
            raise
    raise AssertionError("unreachable")  # pragma: no cover


def driver_for(engine: Any) -> _Driver:
    """The statements for `engine`'s database, made once."""
    driver = _drivers.get(engine.dialect.name)
    if driver is None:
        driver = _drivers[engine.dialect.name] = _Driver(engine.dialect)
    return driver


def rollback_quietly(conn: Any) -> None:
    try:
        conn.rollback()
    except Exception:  # noqa: BLE001 - the connection is broken: throw it away
        _forget_connection()


def _store(conn: Any, driver: _Driver, machine_id: int, key_hash: str, reading: dict, now: datetime):
    cursor = conn.cursor()
    try:
        outcome = stage(cursor, driver, machine_id, key_hash, reading, now)
    finally:
        cursor.close()
    if outcome in (REFUSED, GENERAL):
        conn.rollback()
    else:
        conn.commit()  # a duplicate too: the key's last_seen_at, the device did report
    return outcome


def stage(cursor: Any, driver: _Driver, machine_id: int, key_hash: str, reading: dict, now: datetime):
    """Run one reading's statements in the open transaction, neither committing nor rolling back:
    (1, 0, 0) and DUPLICATE are kept by a commit; REFUSED and GENERAL must be undone (rolled back)."""
    ts = reading["ts"]
    at = driver.time(ts)
    cursor.execute(driver.touch_key, (driver.time(now), at, at, machine_id, key_hash))
    if not cursor.rowcount:  # revoked or replaced since it was checked
        return REFUSED
    row = {**dict.fromkeys(METRICS), **reading}
    cursor.execute(driver.insert_reading, (machine_id, at, *(row[m] for m in METRICS)))
    if not cursor.rowcount:
        return DUPLICATE
    cursor.executemany(driver.upsert_rollups, _rollup_rows(driver, machine_id, ts, row))
    cursor.execute(driver.ranges_and_alerts, (machine_id, machine_id))
    if _may_alert(cursor.fetchall(), row):
        return GENERAL
    return 1, 0, 0


def _store_in_two_trips(
    conn: Any, driver: _Driver, machine_id: int, key_hash: str, reading: dict, now: datetime
):
    """MariaDB: the same statements as _store in two round trips instead of five (each costs the
    server and this process more than the statement itself): key, reading and ranges together;
    then the rollups with the COMMIT. A refused key or a duplicate rolls back or commits alone."""
    cursor = conn.cursor()
    try:
        ts = reading["ts"]
        at = driver.time(ts)
        row = {**dict.fromkeys(METRICS), **reading}
        cursor.execute(
            driver.first_trip,
            (driver.time(now), at, at, machine_id, key_hash)
            + (machine_id, at, *(row[m] for m in METRICS))
            + (machine_id, machine_id),
        )
        touched = cursor.rowcount
        cursor.nextset()
        inserted = cursor.rowcount
        cursor.nextset()
        found = cursor.fetchall()
        while cursor.nextset():
            pass
        if not touched:  # revoked or replaced since it was checked: the insert goes with it
            conn.rollback()
            return REFUSED
        if not inserted:
            conn.commit()  # the key's last_seen_at: the device did report
            return DUPLICATE
        if _may_alert(found, row):
            conn.rollback()
            return GENERAL
        rows = _rollup_rows(driver, machine_id, ts, row)
        if not rows:
            conn.commit()
            return 1, 0, 0
        cursor.execute(driver.upsert_and_commit(len(rows)), [v for each in rows for v in each])
        while cursor.nextset():  # the COMMIT's answer: an error surfaces here
            pass
        return 1, 0, 0
    finally:
        cursor.close()


def _rollup_rows(driver: _Driver, machine_id: int, ts: datetime, row: dict) -> list[tuple]:
    """The reading's two rollup rows, its day's and its hour's (primary-key order), as
    rollups.ROLLUP_COLUMNS."""
    cells = rollups.reading_cells(row)
    if cells is None:  # a parsed reading carries at least one metric
        return []
    day, hour = driver.time(rollups.day_start(ts)), driver.time(rollups.hour_start(ts))
    return [(machine_id, "d", day, *cells), (machine_id, "h", hour, *cells)]


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
