"""Refused device messages: counted on their machine, the newest KEEP of them kept with their
time and reason, for the machine's device page. A handler calls record() for what it refused;
the write is one transaction of its own.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime

from sqlalchemy import delete, insert, select

from ..extensions import db
from ..models import Machine, utcnow
from ..models.mqtt import MqttDevice, MqttRefusal

log = logging.getLogger(__name__)
KEEP = 20
MAX_REASON = 300


def record(refusals: list[tuple[int, str]], now: datetime | None = None) -> int:
    """Store (machine id, reason) refusals and commit; returns how many were kept."""
    kept = add(refusals, now or utcnow())
    db.session.commit()
    return kept


def add(refusals: list[tuple[int, str]], now: datetime) -> int:
    """Store (machine id, reason) refusals in the caller's transaction; returns how many were
    kept (a topic of a machine that does not exist is only logged)."""
    if not refusals:
        return 0
    ids = sorted({m for m, _reason in refusals})
    known = set(db.session.scalars(select(Machine.id).where(Machine.id.in_(ids))))
    kept = [(m, r) for m, r in refusals if m in known]
    for machine_id, reason in refusals:
        if machine_id not in known:
            log.warning("refused a message on the topic of unknown machine %s: %s", machine_id, reason)
    if kept:
        db.session.execute(
            insert(MqttRefusal), [{"machine_id": m, "at": now, "reason": r[:MAX_REASON]} for m, r in kept]
        )
        counts = Counter(m for m, _reason in kept)
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
            _trim(machine_id)
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


def _trim(machine_id: int) -> None:
    cutoff = db.session.scalar(
        select(MqttRefusal.id)
        .where(MqttRefusal.machine_id == machine_id)
        .order_by(MqttRefusal.id.desc())
        .offset(KEEP - 1)
        .limit(1)
    )
    if cutoff is not None:
        db.session.execute(
            delete(MqttRefusal).where(MqttRefusal.machine_id == machine_id, MqttRefusal.id < cutoff)
        )
