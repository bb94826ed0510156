"""Store many devices' messages in one transaction (the MQTT subscriber's write path).

Each message is one device's body, exactly as `POST /api/telemetry` takes it, screened by the
subscriber's common steps (sibol.mqtt.intake: retained, rate limit, JSON) and checked by the same
functions (ingest.parse_body). A refused message stores nothing, is counted on the machine and
keeps its time, reason and first bytes (sibol.mqtt.refusals); it never stops the batch, nor does
a machine whose every message of the batch was refused. The accepted readings of the whole batch are then written at once:
the device rows first (in machine order, which takes their write locks in one order, so two
subscribers or an HTTP request never deadlock on them), the duplicate check on (machine, ts),
the new rows, the hourly and daily rollups, and the alerts, oldest reading first per machine.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import cast

from flask_babel import gettext as _
from sqlalchemy import (
    Connection,
    DateTime,
    Executable,
    Integer,
    Table,
    and_,
    bindparam,
    case,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Dialect

from ..data.retry import with_retry
from ..errors import Invalid
from ..extensions import db
from ..models import utcnow
from ..models.telemetry import METRICS, Alert, DeviceKey, Reading, Threshold
from ..mqtt import intake
from ..mqtt import refusals as refusal_log
from ..mqtt.refusals import Refusal
from . import alerts, ingest, rollups
from .bulk import DriverStatement
from .metrics import DEFAULT_RANGES

log = logging.getLogger(__name__)

MAX_REASON = 300
CHUNK = 400  # rows per IN (...) list: well under SQLite's and MariaDB's parameter limits
ATTEMPTS = 8  # a batch is tried again after a database error (a deadlock, a busy SQLite file)


@dataclass
class Incoming:
    """One device message: the machine named by its topic, the raw payload, and whether the
    broker handed it out as a retained message."""

    machine_id: int
    payload: bytes
    retained: bool = False


@dataclass
class BatchResult:
    stored: int = 0
    duplicates: int = 0
    refused: int = 0
    notified: int = 0
    refusals: list[Refusal] = field(default_factory=list)


def store_messages(messages: Iterable[Incoming]) -> BatchResult:
    """Check every message, then store the accepted readings in one transaction.

    A database error rolls the whole batch back and runs it again (nothing of a failed attempt is
    kept); the caller acknowledges the messages to the broker only after this returns."""
    now = utcnow()
    screened, refused = intake.screen(messages)
    accepted: dict[int, list[dict]] = defaultdict(list)
    payloads: dict[int, list[bytes]] = defaultdict(list)  # each machine's accepted messages
    for message, body in screened:
        try:
            readings = ingest.parse_body(body, now)
        except Invalid as err:
            refused.append(Refusal(message.machine_id, err.message, message.payload))
            continue
        accepted[message.machine_id].extend(readings)
        payloads[message.machine_id].append(message.payload)
    return with_retry(
        lambda: _write(accepted, payloads, refused, now),
        attempts=ATTEMPTS,
        backoff=0.05,
        retryable=lambda _err: True,  # any database error, a busy SQLite file too
        before_retry=lambda err, attempt: log.warning(
            "telemetry batch failed (%s); trying again (attempt %d)", err.__class__.__name__, attempt
        ),
    )


def _write(
    accepted: dict[int, list[dict]], payloads: dict[int, list[bytes]], refused: list[Refusal], now: datetime
) -> BatchResult:
    if db.engine.dialect.name == "mysql" and not db.session().in_transaction():
        # READ COMMITTED: InnoDB then locks only the rows a statement changes, not every row it
        # reads on the way (an UPDATE of a few hundred devices may scan the table), so writers of
        # different machines at once (the subscriber's writer processes, HTTP) do not deadlock.
        # A caller already inside a transaction (a test's session) keeps its own level.
        db.session.connection(execution_options={"isolation_level": "READ COMMITTED"})
    result = BatchResult()
    refusals = list(refused)
    ids = sorted(m for m, rows in accepted.items() if rows)
    valid = _lock_devices(accepted, ids, now) if ids else set()
    revoked = _("Unknown or revoked device key.")
    for machine_id in ids:
        if machine_id not in valid:
            refusals.extend(Refusal(machine_id, revoked, p) for p in payloads[machine_id])
    readings = {m: accepted[m] for m in ids if m in valid}
    connection = db.session.connection()
    new_rows = _new_rows(connection, readings)
    result.duplicates = sum(len(r) for r in readings.values()) - sum(len(r) for r in new_rows.values())
    flat = [row for m in sorted(new_rows) for row in new_rows[m]]
    if flat:
        READING_INSERT.executemany(connection, ([row[c] for c in READING_COLUMNS] for row in flat))
        rollups.add_many(connection, new_rows)
        result.notified = _evaluate_alerts(new_rows, now)
    result.stored = len(flat)
    refusal_log.add(refusals, now)
    result.refusals, result.refused = refusals, len(refusals)
    db.session.commit()
    return result


def _chunks(items: list, size: int = CHUNK) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _lock_devices(accepted: dict[int, list[dict]], ids: list[int], now: datetime) -> set[int]:
    """Stamp last seen / newest reading on the keyed devices; returns the machines whose key is live.

    The keyed rows are locked first, in machine order (SELECT ... FOR UPDATE on MariaDB; SQLite
    has one writer), so two subscribers or an HTTP request never deadlock on them. The stamps are
    then one UPDATE per distinct newest time (devices' clocks agree to the second, so a batch
    has few), each of the same shape whatever the batch holds."""
    valid: set[int] = set()
    for chunk in _chunks(ids):
        valid.update(
            db.session.scalars(
                select(DeviceKey.machine_id)
                .where(DeviceKey.machine_id.in_(chunk), DeviceKey.key_hash.is_not(None))
                .order_by(DeviceKey.machine_id)
                .with_for_update()
            )
        )
    by_newest: dict[datetime, list[int]] = defaultdict(list)
    for machine_id in sorted(valid):
        by_newest[max(r["ts"] for r in accepted[machine_id])].append(machine_id)
    last = DeviceKey.last_reading_at
    for newest, machines in sorted(by_newest.items()):
        for chunk in _chunks(machines):
            db.session.execute(
                update(DeviceKey)
                .where(DeviceKey.machine_id.in_(chunk))
                .values(
                    last_seen_at=now,
                    last_reading_at=case((or_(last.is_(None), last < newest), newest), else_=last),
                )
                .execution_options(synchronize_session=False)
            )
    return valid


def _stored_pairs(dialect: Dialect) -> Executable:
    """Which of PROBE (machine, ts) pairs are stored: an OR of equalities, each one lookup in
    the unique key on SQLite and MariaDB alike (SQLite scans the table for a row-value IN)."""
    table = cast(Table, Reading.__table__)
    return select(table.c.machine_id, table.c.ts).where(
        or_(
            *(
                and_(
                    table.c.machine_id == bindparam(f"m{i}"), table.c.ts == bindparam(f"t{i}", type_=DateTime)
                )
                for i in range(PROBE)
            )
        )
    )


PROBE = 250  # pairs per duplicate check; a batch's last chunk repeats its last pair
PROBE_NAMES = tuple(n for i in range(PROBE) for n in (f"m{i}", f"t{i}"))
STORED_PAIRS = DriverStatement(
    cast(Table, Reading.__table__),
    _stored_pairs,
    PROBE_NAMES,
    {n: (Integer() if n[0] == "m" else DateTime()) for n in PROBE_NAMES},
)
READING_COLUMNS = ("machine_id", "ts", *METRICS)
READING_INSERT = DriverStatement(
    cast(Table, Reading.__table__), lambda _d: insert(cast(Table, Reading.__table__)), READING_COLUMNS
)


def _new_rows(connection: Connection, readings: dict[int, list[dict]]) -> dict[int, list[dict]]:
    """Per machine, the readings whose (machine, ts) is not stored yet, oldest first, as rows."""
    pairs = sorted({(m, r["ts"]) for m, rows in readings.items() for r in rows})
    stored_ts = STORED_PAIRS.to_driver(connection.dialect, "t0")
    existing: set[tuple[int, object]] = set()
    for chunk in _chunks(pairs, PROBE):
        padded = chunk + [chunk[-1]] * (PROBE - len(chunk))
        found = STORED_PAIRS.fetch(connection, [v for pair in padded for v in pair])
        existing.update((m, ts) for m, ts in found)
    blank = dict.fromkeys(METRICS)
    out: dict[int, list[dict]] = {}
    for machine_id, rows in readings.items():
        fresh: dict[datetime, dict] = {}
        for reading in rows:
            ts = reading["ts"]
            if (machine_id, stored_ts(ts)) not in existing and ts not in fresh:
                fresh[ts] = {"machine_id": machine_id, **blank, **reading}
        if fresh:
            out[machine_id] = [fresh[ts] for ts in sorted(fresh)]
    return out


def _evaluate_alerts(new_rows: dict[int, list[dict]], now: datetime) -> int:
    """alerts.evaluate per machine, with the healthy ranges and open alerts read in two queries."""
    ids = sorted(new_rows)
    ranges: dict[int, dict[str, tuple[float, float]]] = {m: dict(DEFAULT_RANGES) for m in ids}
    open_alerts: dict[int, dict[str, Alert]] = {m: {} for m in ids}
    for chunk in _chunks(ids):
        for row in db.session.scalars(select(Threshold).where(Threshold.machine_id.in_(chunk))):
            ranges[row.machine_id][row.metric] = (row.low, row.high)
        for alert in db.session.scalars(
            select(Alert).where(Alert.machine_id.in_(chunk), Alert.closed_at.is_(None))
        ):
            open_alerts[alert.machine_id][alert.metric] = alert
    return sum(
        alerts.evaluate(m, new_rows[m], now=now, ranges=ranges[m], open_alerts=open_alerts[m]) for m in ids
    )
