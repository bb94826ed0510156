"""A refused MQTT message never stops the batch it is in, whatever its kind and place; what a
handler fails on alone is parked as a dead letter and the rest stored. The refusals and dead
letters are counted on the machine's device page and in GET /api/machines/{id}/telemetry/refusals."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from sibol.devices import keys
from sibol.extensions import db
from sibol.models.mqtt import MqttDeadLetter
from sibol.models.telemetry import Reading
from sibol.mqtt import dispatch, refusals
from sibol.mqtt.settings import Broker
from sibol.mqtt.subscriber import Delivery, Subscriber
from sibol.telemetry import batch
from sibol.telemetry.cli import tick
from tests.factories import make_admin, make_machine
from tests.factories_telemetry import healthy, keyed_machine


def stamp(minutes_ago: float = 1, seconds: int = 0) -> str:
    return (
        datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=minutes_ago, seconds=seconds)
    ).isoformat()


# Each kind of refusal a faulty controller sends, with the reason recorded for it.
BAD = {
    "not json": (b"not json", "not valid JSON"),
    "not utf-8": (b"\xff\xfe{", "not UTF-8"),
    "not an object": (b"[1, 2]", "must be a JSON object"),
    "ph out of range": (b'{"ph": 15}', "ph"),
    "ts two hours ahead": (None, "ts"),
    "unknown field": (b'{"colour": 3}', "colour"),
    "empty readings": (b'{"readings": []}', "readings"),
    "no metric": (b'{"ts": "2026-01-01T00:00:00Z"}', ""),
}


def bad_payload(kind: str) -> bytes:
    payload = BAD[kind][0]
    if payload is None:  # a clock two hours fast
        ahead = (datetime.now(UTC).replace(microsecond=0) + timedelta(hours=2)).isoformat()
        payload = json.dumps({"ph": 7, "ts": ahead}).encode()
    return payload


def good(machine_id: int, minutes: int) -> batch.Incoming:
    """A valid reading `minutes` back: distinct numbers give distinct times, however slow the test."""
    return batch.Incoming(machine_id, json.dumps(healthy(ts=stamp(minutes_ago=minutes))).encode())


def stored(machine_id: int) -> int:
    db.session.rollback()
    return len(db.session.scalars(select(Reading.id).where(Reading.machine_id == machine_id)).all())


@pytest.mark.parametrize("kind", sorted(BAD))
@pytest.mark.parametrize("place", ["alone", "first", "middle", "last"])
def test_a_refused_message_anywhere_in_a_batch_stops_nothing(app, client, api_headers, kind, place):
    faulty, _k = keyed_machine()
    others = [keyed_machine()[0] for _ in range(2)]
    bad = batch.Incoming(faulty.id, bad_payload(kind))
    valid = [good(others[0].id, 1), good(others[1].id, 2)]
    messages = {
        "alone": [bad],
        "first": [bad, *valid],
        "middle": [valid[0], bad, valid[1]],
        "last": [*valid, bad],
    }[place]
    result = batch.store_messages(messages)
    assert result.refused == 1 and result.stored == len(messages) - 1
    # and the next batch, another machine's reading, goes through at once
    nxt, _k2 = keyed_machine()
    assert batch.store_messages([good(nxt.id, 3)]).stored == 1
    assert stored(faulty.id) == 0 and stored(nxt.id) == 1
    res = client.get(f"/api/machines/{faulty.id}/telemetry/refusals", headers=api_headers(make_admin()))
    assert res.status_code == 200
    assert res.json["refusedCount"] == 1 and res.json["deadLetterCount"] == 0
    (shown,) = res.json["data"]
    assert BAD[kind][1] in shown["reason"]
    assert shown["payload"] == bad.payload.decode("utf-8", "backslashreplace")
    assert shown["at"].endswith("Z")


def test_the_refusal_keeps_only_the_first_512_bytes(app, client, api_headers):
    machine, _k = keyed_machine()
    payload = b'{"ph": "' + b"x" * 2000 + b'"}'
    assert batch.store_messages([batch.Incoming(machine.id, payload)]).refused == 1
    res = client.get(f"/api/machines/{machine.id}/telemetry/refusals", headers=api_headers(make_admin()))
    assert res.json["data"][0]["payload"] == payload[:512].decode()


def test_a_machine_whose_every_message_was_refused_beside_a_valid_one(app):
    """The case that raised: a keyed machine with only refused messages, another with a reading."""
    faulty, _k = keyed_machine()
    fine, _k2 = keyed_machine()
    result = batch.store_messages(
        [batch.Incoming(faulty.id, b'{"ph": 15}'), batch.Incoming(faulty.id, b"{"), good(fine.id, 4)]
    )
    assert (result.stored, result.refused) == (1, 2)


def test_a_retained_message_is_refused(app):
    machine, _k = keyed_machine()
    message = good(machine.id, 5)
    message.retained = True
    result = batch.store_messages([message])
    assert (result.stored, result.refused) == (0, 1)
    assert "retained" in refusals.recent(machine.id)[1][0].reason


def test_the_refusals_route_is_scoped_and_needs_the_machines_module(
    app, client, api_headers, world, fresh_identity
):
    a, b = world
    batch.store_messages([batch.Incoming(b.machine.id, b"nope")])
    url = f"/api/machines/{b.machine.id}/telemetry/refusals"
    assert client.get(url, headers=api_headers(a.admin)).status_code == 404  # another barangay's
    assert client.get(url, headers=api_headers(b.household)).status_code == 403  # no machines module
    assert client.get(url).status_code == 401
    mine = client.get(url, headers=api_headers(b.staff))
    assert mine.status_code == 200 and mine.json["refusedCount"] == 1
    assert (
        client.get("/api/machines/999999/telemetry/refusals", headers=api_headers(b.admin)).status_code == 404
    )


# The subscriber's split: a batch whose handler raises is stored message by message -----------


class Boom(RuntimeError):
    pass


@pytest.fixture
def failing_handler(app):
    """A "telemetry" handler that raises on any batch holding a payload with b"boom" in it."""
    real = dispatch.HANDLERS["telemetry"] if "telemetry" in dispatch.HANDLERS else None

    def handler(messages):
        if any(b"boom" in m.payload for m in messages):
            raise Boom("the handler broke on this message")
        return batch.store_messages(batch.Incoming(m.machine_id, m.payload, m.retained) for m in messages)

    dispatch.HANDLERS["telemetry"] = handler
    yield
    if real is None:
        dispatch.HANDLERS.pop("telemetry", None)
    else:
        dispatch.HANDLERS["telemetry"] = real


def subscriber(app) -> Subscriber:
    sub = Subscriber.__new__(Subscriber)  # no broker: process() is what is tested
    sub.app, sub.writers = app, None
    sub.counters = type(Subscriber(app, Broker("127.0.0.1", 1, None, None, False)).counters)()
    sub.client = type("Acker", (), {"acked": [], "ack": lambda self, mid, qos: self.acked.append(mid)})()
    return sub


def delivery(machine_id: int, payload: bytes, mid: int) -> Delivery:
    return Delivery(f"sibol/v1/machines/{machine_id}/telemetry", payload, mid, 1, False)


def test_a_message_that_breaks_the_handler_is_parked_and_the_rest_stored(
    app, client, api_headers, failing_handler
):
    a, _k = keyed_machine()
    b, _k2 = keyed_machine()
    breaking = json.dumps({"ph": 7, "ts": stamp(minutes_ago=9), "boom": 1}).encode()
    sub = subscriber(app)
    sub.process(
        [
            delivery(a.id, good(a.id, 6).payload, 1),
            delivery(b.id, breaking, 2),
            delivery(a.id, good(a.id, 7).payload, 3),
        ]
    )
    assert sub.client.acked == [1, 2, 3]  # every message acknowledged: none waits on the broken one
    assert (sub.counters.split, sub.counters.parked) == (1, 1)
    assert stored(a.id) == 2 and stored(b.id) == 0
    res = client.get(f"/api/machines/{b.id}/telemetry/refusals", headers=api_headers(make_admin()))
    assert res.json["deadLetterCount"] == 1 and res.json["refusedCount"] == 0
    (dead,) = res.json["deadLetters"]
    assert dead["topic"] == "telemetry" and "Boom" in dead["error"] and dead["payload"] == breaking.decode()
    # the next batch is stored whole, at once
    sub.process([delivery(a.id, good(a.id, 8).payload, 4)])
    assert stored(a.id) == 3 and sub.counters.split == 1


def test_dead_letters_are_capped_per_machine_and_purged_after_30_days(app):
    machine = make_machine()
    for i in range(refusals.DEAD_KEEP + 5):
        refusals.park(machine.id, "telemetry", b"x%d" % i, Boom("no"))
    count, newest = refusals.dead_letters(machine.id)
    assert count == refusals.DEAD_KEEP and newest[0].payload == b"x%d" % (refusals.DEAD_KEEP + 4)
    old = db.session.scalars(select(MqttDeadLetter).order_by(MqttDeadLetter.id).limit(3)).all()
    for row in old:
        row.at = datetime.now(UTC).replace(tzinfo=None) - timedelta(days=31)
    db.session.commit()
    assert tick()["purged_dead_letters"] == 3
    assert refusals.dead_letters(machine.id)[0] == refusals.DEAD_KEEP - 3


def test_the_device_page_counts_refusals_and_dead_letters(app, client, login):
    machine, _k = keyed_machine()
    batch.store_messages([batch.Incoming(machine.id, b'{"ph": 15}')])
    refusals.park(machine.id, "telemetry", b'{"ph": 7}', Boom("no"))
    login(make_admin())
    page = client.get(f"/sibol-machines/machines/{machine.id}/device").get_data(as_text=True)
    assert "Refused messages: 1" in page
    assert "dead letters, 30 days): 1" in page
    assert "{&#34;ph&#34;: 15}" in page or '{"ph": 15}' in page
    keys.revoke_key(machine.id)


def test_a_failing_limit_store_refuses_and_parks_nothing(app, monkeypatch):
    """The device request limit lives in a store of its own; when it fails, readings go through."""
    from sibol.identity import device_rates

    def broken(_wanted):
        raise OSError("disk I/O error")

    monkeypatch.setattr(device_rates, "take", broken)
    machine, _k = keyed_machine()
    result = batch.store_messages([good(machine.id, 11), good(machine.id, 12)])
    assert (result.stored, result.refused) == (2, 0)
