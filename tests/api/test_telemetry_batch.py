"""The MQTT subscriber's batch store: the same rows, rollups and alerts as one reading per request."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from sibol.devices import keys
from sibol.extensions import db
from sibol.models import RoleId, utcnow
from sibol.models.telemetry import ROLLUP_CELL_NAMES, SERIES_METRICS, Alert, DeviceKey, Reading, Rollup
from sibol.mqtt import refusals
from sibol.telemetry import batch, ingest
from tests.factories import make_account, make_machine
from tests.factories_telemetry import healthy, keyed_machine


def message(machine_id: int, body: dict | bytes) -> batch.Incoming:
    payload = body if isinstance(body, bytes) else json.dumps(body).encode()
    return batch.Incoming(machine_id, payload)


def history() -> list[dict]:
    """Readings across a day boundary: an out-of-range pH that opens an alert and three in-range
    readings that close it, a reading without current (no power cell), varied values."""
    day = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=2)
    out = []
    for i, minutes in enumerate((-70, -65, -3, 0, 2, 61, 62, 63, 125)):
        ts = day + timedelta(minutes=minutes, seconds=i)
        reading = healthy(ts=ts.isoformat(), weight_kg=10.0 + i * 1.25, temperature_c=33.0 + (i % 3))
        if i == 2:
            reading["ph"] = 9.2
        if i == 4:
            del reading["current_a"]
        out.append(reading)
    return out


def rollups_of(machine_id: int) -> list[tuple]:
    """(period, metric, start, min, max, sum, count) of every metric the machine reported."""
    rows = db.session.scalars(select(Rollup).where(Rollup.machine_id == machine_id))
    out = []
    for row in rows:
        for metric in SERIES_METRICS:
            lo, hi, total, n = (getattr(row, name) for name in ROLLUP_CELL_NAMES[metric])
            if n:
                out.append((row.period, metric, row.start, lo, hi, round(total, 9), n))
    return sorted(out)


def alerts_of(machine_id: int) -> list[tuple]:
    rows = db.session.scalars(select(Alert).where(Alert.machine_id == machine_id))
    return sorted((a.metric, a.opened_at, a.closed_at, a.value, a.in_range_streak) for a in rows)


def readings_of(machine_id: int) -> list[tuple]:
    rows = db.session.scalars(select(Reading).where(Reading.machine_id == machine_id).order_by(Reading.ts))
    return [(r.ts, r.weight_kg, r.ph, r.current_a, r.water_l) for r in rows]


def test_a_batch_stores_what_one_request_per_reading_stores(app):
    make_account(role=RoleId.STAFF)  # told of alerts
    by_batch, _key = keyed_machine()
    by_request, _other = keyed_machine()
    neighbours = [keyed_machine()[0] for _ in range(3)]
    readings = history()
    now = utcnow()
    notified_http = 0
    for reading in readings:
        notified_http += ingest.store(by_request.id, ingest.parse_body(reading, now), now=now).notified

    # Two batches, the machine's messages among its neighbours', the first split across them.
    first, second = readings[:5], readings[5:]
    msgs = []
    for i, reading in enumerate(first):
        msgs.append(message(by_batch.id, reading))
        msgs.append(message(neighbours[i % 3].id, healthy(ts=reading["ts"])))
    one = batch.store_messages(msgs)
    two = batch.store_messages([message(by_batch.id, {"readings": second})])

    assert (one.stored, one.duplicates, one.refused) == (10, 0, 0)
    assert (two.stored, two.duplicates, two.refused) == (4, 0, 0)
    assert one.notified + two.notified == notified_http > 0
    assert readings_of(by_batch.id) == readings_of(by_request.id)
    assert rollups_of(by_batch.id) == rollups_of(by_request.id)
    assert alerts_of(by_batch.id) == alerts_of(by_request.id)
    assert [a[2] is not None for a in alerts_of(by_batch.id)] == [True]  # opened, then closed
    stamps = db.session.get(DeviceKey, by_batch.id)
    assert stamps.last_reading_at == max(r.ts for r in db.session.scalars(select(Reading)))
    assert stamps.last_seen_at is not None


def test_resent_readings_are_duplicates_and_change_nothing(app):
    machine, _key = keyed_machine()
    other, _other = keyed_machine()
    readings = history()[:4]
    batch.store_messages([message(machine.id, r) for r in readings])
    before = rollups_of(machine.id), alerts_of(machine.id), readings_of(machine.id)

    # The same readings again (a QoS 1 redelivery), one twice in this batch, and one new reading.
    new = healthy(ts=(datetime.fromisoformat(readings[-1]["ts"]) + timedelta(seconds=30)).isoformat())
    again = batch.store_messages(
        [message(machine.id, r) for r in readings]
        + [message(machine.id, readings[0]), message(other.id, readings[0]), message(machine.id, new)]
    )
    assert (again.stored, again.duplicates, again.refused) == (2, 5, 0)
    assert len(readings_of(machine.id)) == 5 and len(readings_of(other.id)) == 1
    cells, alerts_now, _rows = rollups_of(machine.id), alerts_of(machine.id), readings_of(machine.id)
    # Only the new in-range reading counts towards closing the open pH alert, not the resent ones.
    assert [a[:4] for a in alerts_now] == [a[:4] for a in before[1]]
    assert alerts_now[0][4] == before[1][0][4] + 1
    counts = {(p, m, s): n for p, m, s, _lo, _hi, _sum, n in cells}
    assert sum(n for (p, m, _s), n in counts.items() if p == "h" and m == "ph") == 5


def test_refused_messages_store_nothing_and_never_stop_the_batch(app):
    good, _key = keyed_machine()
    revoked, _revoked_key = keyed_machine()
    keys.revoke_key(revoked.id)
    keyless = make_machine()
    ts = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    result = batch.store_messages(
        [
            message(good.id, b"\xff not utf-8"),
            message(good.id, b'{"ph": '),
            message(good.id, {"ph": "acid"}),
            message(good.id, {"ph": int("9" * 400)}),  # past a float: refused, never an error
            message(good.id, {"ph": 7, "ts": -int("9" * 400)}),
            message(revoked.id, healthy(ts=ts)),
            message(keyless.id, healthy(ts=ts)),
            message(good.id, healthy(ts=ts)),
        ]
    )
    assert (result.stored, result.refused) == (1, 7)
    assert readings_of(revoked.id) == [] and readings_of(keyless.id) == []
    assert rollups_of(revoked.id) == [] and len(readings_of(good.id)) == 1
    count, shown = refusals.recent(good.id)
    assert count == 5 and len(shown) == 5
