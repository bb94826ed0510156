"""Refused device messages and dead letters, kept on their machine for its device page and API.

A refusal is the device's fault (not JSON, a bad field, over the rate limit, a revoked key): the
message is acknowledged, stores nothing, adds one to the machine's refused count, and the newest
KEEP are kept with their time, reason and first SNIPPET bytes. A dead letter is ours: a message
whose handler still failed when it was tried alone; it is kept whole with the error (the newest
DEAD_KEEP per machine, for DEAD_DAYS days) so that it can be looked at and sent again, and the
rest of its batch is stored without it.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any, NamedTuple, cast

from sqlalchemy import CursorResult, delete, func, insert, select

from ..extensions import db
from ..models import Machine, utcnow
from ..models.mqtt import SNIPPET, MqttDeadLetter, MqttDevice, MqttRefusal

log = logging.getLogger(__name__)
KEEP = 20
MAX_REASON = 300
DEAD_KEEP = 100
DEAD_DAYS = 30


class Refusal(NamedTuple):
    machine_id: int
    reason: str
    payload: bytes = b""


def record(refusals: Iterable[Refusal | tuple], now: datetime | None = None) -> int:
    """Store refusals and commit; returns how many were kept."""
    kept = add(refusals, now or utcnow())
    db.session.commit()
    return kept


def add(refusals: Iterable[Refusal | tuple], now: datetime) -> int:
    """Store refusals ((machine id, reason[, payload])) in the caller's transaction; returns how
    many were kept (a topic of a machine that does not exist is only logged)."""
    given = [Refusal(*r) for r in refusals]
    if not given:
        return 0
    ids = sorted({r.machine_id for r in given})
    known = set(db.session.scalars(select(Machine.id).where(Machine.id.in_(ids))))
    kept = [r for r in given if r.machine_id in known]
    for r in given:
        if r.machine_id not in known:
            log.warning("refused a message on the topic of unknown machine %s: %s", r.machine_id, r.reason)
    if kept:
        db.session.execute(
            insert(MqttRefusal),
            [
                {
                    "machine_id": r.machine_id,
                    "at": now,
                    "reason": r.reason[:MAX_REASON],
                    "payload": r.payload[:SNIPPET],
                }
                for r in kept
            ],
        )
        counts = Counter(r.machine_id for r in kept)
        rows = {
            d.machine_id: d
            for d in db.session.scalars(
                select(MqttDevice).where(MqttDevice.machine_id.in_(counts)).with_for_update()
            )
        }
        for machine_id, count in sorted(counts.items()):
            row = rows.get(machine_id)
            if row is None:
                row = MqttDevice(machine_id=machine_id, refused_count=0)
                db.session.add(row)
            row.refused_count = (row.refused_count or 0) + count
            row.last_refused_at = now
            _trim(MqttRefusal, machine_id, KEEP)
    return len(kept)


def recent(machine_id: int) -> tuple[int, list[MqttRefusal]]:
    """The machine's refused-message count and its newest refusals (newest first)."""
    count = (
        db.session.scalar(select(MqttDevice.refused_count).where(MqttDevice.machine_id == machine_id)) or 0
    )
    rows = db.session.scalars(
        select(MqttRefusal)
        .where(MqttRefusal.machine_id == machine_id)
        .order_by(MqttRefusal.id.desc())
        .limit(KEEP)
    )
    return count, list(rows)


def park(
    machine_id: int, suffix: str, payload: bytes, error: BaseException, now: datetime | None = None
) -> bool:
    """Keep a message its handler could not store as a dead letter, in a transaction of its own;
    False when its machine does not exist (then it is only logged). Raises when the database
    cannot take it either (the caller then keeps the message unacknowledged)."""
    db.session.rollback()
    if db.session.get(Machine, machine_id) is None:
        log.error("dropped a message on the topic of unknown machine %s that failed: %r", machine_id, error)
        return False
    text = f"{error.__class__.__name__}: {error}"[:MAX_REASON]
    db.session.add(
        MqttDeadLetter(
            machine_id=machine_id, suffix=suffix[:100], at=now or utcnow(), error=text, payload=payload
        )
    )
    db.session.flush()
    _trim(MqttDeadLetter, machine_id, DEAD_KEEP)
    db.session.commit()
    log.error("parked a message of machine %s (%s) as a dead letter: %s", machine_id, suffix, text)
    return True


def dead_letters(machine_id: int) -> tuple[int, list[MqttDeadLetter]]:
    """The machine's dead-letter count and its newest dead letters (newest first, up to KEEP)."""
    where = MqttDeadLetter.machine_id == machine_id
    count = db.session.scalar(select(func.count()).select_from(MqttDeadLetter).where(where)) or 0
    rows = db.session.scalars(
        select(MqttDeadLetter).where(where).order_by(MqttDeadLetter.id.desc()).limit(KEEP)
    )
    return count, list(rows)


def purge_dead_letters(now: datetime | None = None) -> int:
    """Delete dead letters older than DEAD_DAYS (the minute tick calls this); returns how many."""
    cutoff = (now or utcnow()) - timedelta(days=DEAD_DAYS)
    result = cast(
        "CursorResult[Any]", db.session.execute(delete(MqttDeadLetter).where(MqttDeadLetter.at < cutoff))
    )
    deleted = result.rowcount or 0
    db.session.commit()
    return deleted


def shown(payload: bytes | None) -> str:
    """A stored payload as text for a page or JSON: bytes that are not UTF-8 as \\xNN."""
    return (payload or b"").decode("utf-8", "backslashreplace")


def _trim(model: type[MqttRefusal] | type[MqttDeadLetter], machine_id: int, keep: int) -> None:
    cutoff = db.session.scalar(
        select(model.id)
        .where(model.machine_id == machine_id)
        .order_by(model.id.desc())
        .offset(keep - 1)
        .limit(1)
    )
    if cutoff is not None:
        db.session.execute(delete(model).where(model.machine_id == machine_id, model.id < cutoff))
