"""A stream of readings from several devices, and what the database holds of it."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from sibol.extensions import db
from sibol.models.telemetry import Reading
from tests.support.mosquitto import device_client


def stored(machine_id: int) -> list[datetime]:
    db.session.rollback()  # a fresh read: the subscriber commits in its own process
    return list(db.session.scalars(select(Reading.ts).where(Reading.machine_id == machine_id)))


def iso(ts: datetime) -> str:
    return ts.replace(tzinfo=UTC).isoformat()


def publish_stream(
    port: int, devices: list[tuple[int, str]], per_device: int, acked: dict, stop: threading.Event
):
    """Each device publishes `per_device` readings (distinct ts); when it ends, `acked` holds what
    the broker acknowledged. The callbacks take no lock: paho calls them holding its own, which a
    publishing thread waits for, so a lock of ours taken on both sides would deadlock."""
    start = datetime.now(UTC).replace(tzinfo=None, microsecond=0) - timedelta(hours=2)
    clients = []
    for machine_id, key in devices:
        sent: dict[int, datetime] = {}
        acked_mids: list[int] = []

        def on_publish(_c, _u, mid, reason, _p, acked_mids=acked_mids):
            if not reason.is_failure:
                acked_mids.append(mid)

        client = device_client(port, machine_id, key, on_publish=on_publish)
        clients.append((machine_id, client, sent, acked_mids))
    for i in range(per_device):
        if stop.is_set():
            break
        ts = start + timedelta(seconds=i)
        for machine_id, client, sent, _acked_mids in clients:
            info = client.publish(
                f"sibol/v1/machines/{machine_id}/telemetry", f'{{"ph": 7.1, "ts": "{iso(ts)}"}}', 1
            )
            sent[info.mid] = ts
        time.sleep(0.01)
    time.sleep(3)  # paho resends what the broker did not acknowledge after a reconnect
    for machine_id, client, sent, acked_mids in clients:
        client.disconnect()
        client.loop_stop()
        acked.setdefault(machine_id, set()).update(sent[mid] for mid in acked_mids if mid in sent)
