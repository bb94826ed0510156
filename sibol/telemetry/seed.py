"""Sample telemetry: the last 7 days of readings of a few machines, so the screens are never
empty on a first run. Seeded once (when no reading exists), every 15 minutes, through the same
store() as the API, so rollups and alerts are real."""

from __future__ import annotations

import random
from datetime import timedelta

from sqlalchemy import func, select

from ..devices import service as devices
from ..extensions import db
from ..models import Machine, utcnow
from ..models.telemetry import Reading
from . import ingest
from .simulate import DigesterState, backfill

SAMPLE_MACHINES = 3
SAMPLE_DAYS = 7
STEP = timedelta(minutes=15)


def sample_data() -> int:
    """Seed the sample week once. Returns how many readings were stored."""
    if db.session.scalar(select(func.count()).select_from(Reading)):
        return 0
    machine_ids = list(db.session.scalars(select(Machine.id).order_by(Machine.id).limit(SAMPLE_MACHINES)))
    now = utcnow().replace(second=0, microsecond=0)
    stored = 0
    for n, machine_id in enumerate(machine_ids):
        devices.issue_key(machine_id, actor_id=None)  # the raw key is not kept: issue a new one to use it
        state = DigesterState(rng=random.Random(1000 + n))  # noqa: S311 - sample data, not secrets
        rows = backfill(state, now - timedelta(days=SAMPLE_DAYS), now, STEP)
        if n == 0:  # one machine had a sour spell two days ago, so the Alerts view has history
            for row in rows[-200:-196]:
                row["ph"] = 5.9
        for i in range(0, len(rows), ingest.MAX_READINGS):
            stored += ingest.store(machine_id, rows[i : i + ingest.MAX_READINGS], now=now).accepted
    return stored
