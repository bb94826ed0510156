"""MQTT ingestion through a real Mosquitto (started here on a free port, its own data directory)
and the console's subscriber as its own process, on the database under test."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models.telemetry import Reading
from tests.factories import make_admin, make_machine
from tests.factories_telemetry import healthy
from tests.support.mosquitto import SubscriberProcess, device_client, wait_until
from tests.support.servers import server_env

from .stream import iso, publish_stream, stored


class Acks:
    """PUBACK reason codes by message id, for a device client."""

    def __init__(self) -> None:
        self.codes: dict[int, object] = {}
        self.lock = threading.Lock()

    def on_publish(self, _c, _u, mid, reason, _p) -> None:
        with self.lock:
            self.codes[mid] = reason


def test_a_published_reading_appears_in_latest(broker, subscriber, client, admin_headers, issue):
    machine = make_machine()
    key = issue(machine)
    acks = Acks()
    dev = device_client(broker.port, machine.id, key, on_publish=acks.on_publish)
    ts = datetime.now(UTC).replace(tzinfo=None, microsecond=0) - timedelta(minutes=1)
    info = dev.publish(
        f"sibol/v1/machines/{machine.id}/telemetry", str(healthy(ph=7.3, ts=iso(ts))).replace("'", '"'), 1
    )
    info.wait_for_publish(5)
    assert not acks.codes[info.mid].is_failure

    def latest():
        db.session.rollback()  # MariaDB: a fresh snapshot, the subscriber commits in its own process
        res = client.get(f"/api/machines/{machine.id}/telemetry/latest", headers=admin_headers)
        return res.json["data"].get("ph")

    ph = wait_until(latest, what="the reading in /latest")
    assert ph["value"] == 7.3
    dev.disconnect()


def test_another_machines_topic_and_wildcards_are_refused_by_the_broker(broker, subscriber, issue):
    mine, theirs = make_machine(), make_machine()
    key = issue(mine)
    issue(theirs)
    acks, subacks = Acks(), {}
    dev = device_client(
        broker.port,
        mine.id,
        key,
        on_publish=acks.on_publish,
        on_subscribe=lambda _c, _u, mid, codes, _p: subacks.__setitem__(mid, codes),
    )
    now = datetime.now(UTC).replace(microsecond=0)
    foreign = dev.publish(f"sibol/v1/machines/{theirs.id}/telemetry", '{"ph": 7}', 1)
    foreign.wait_for_publish(5)
    assert acks.codes[foreign.mid].getName() == "Not authorized"
    _rc, everything = dev.subscribe("#", 1)
    _rc, their_commands = dev.subscribe(f"sibol/v1/machines/{theirs.id}/commands", 1)
    _rc, my_commands = dev.subscribe(f"sibol/v1/machines/{mine.id}/commands", 1)
    wait_until(lambda: len(subacks) == 3, what="three SUBACKs")
    assert subacks[everything][0].is_failure and subacks[their_commands][0].is_failure
    assert not subacks[my_commands][0].is_failure
    own = dev.publish(f"sibol/v1/machines/{mine.id}/telemetry", f'{{"ph": 7, "ts": "{now.isoformat()}"}}', 1)
    own.wait_for_publish(5)
    wait_until(lambda: stored(mine.id), what="the device's own reading")
    assert stored(theirs.id) == []
    dev.disconnect()


def test_a_revoked_key_is_disconnected_within_5_seconds_and_cannot_come_back(
    broker, client, admin_headers, issue
):
    machine = make_machine()
    old = issue(machine)
    dropped = threading.Event()
    dev = device_client(broker.port, machine.id, old, on_disconnect=lambda *_: dropped.set())
    dev.reconnect_delay_set(60, 60)  # no quick reconnect: we try the old key ourselves below
    time.sleep(0.3)
    assert dev.is_connected()
    started = time.monotonic()
    assert client.delete(f"/api/machines/{machine.id}/device-key", headers=admin_headers).status_code == 204
    assert dropped.wait(5), "the revoked device is still connected"
    assert time.monotonic() - started < 5
    dev.loop_stop()

    refused = threading.Event()
    again = device_client(
        broker.port, machine.id, old, on_connect=lambda _c, _u, _f, rc, _p: rc.is_failure and refused.set()
    )
    assert refused.wait(5), "the old key connected again"
    again.loop_stop()

    new = issue(machine)
    ok = threading.Event()
    fresh = device_client(
        broker.port, machine.id, new, on_connect=lambda _c, _u, _f, rc, _p: not rc.is_failure and ok.set()
    )
    assert ok.wait(5)
    fresh.disconnect()


def test_a_bad_payload_is_recorded_and_the_subscriber_keeps_going(broker, subscriber, client, login, issue):
    machine = make_machine()
    key = issue(machine)
    dev = device_client(broker.port, machine.id, key)
    base = f"sibol/v1/machines/{machine.id}/telemetry"
    now = datetime.now(UTC).replace(microsecond=0)
    for payload in (b"not json", b'{"ph": "sour"}', b'{"colour": 3}', b"\xff\xfe"):
        dev.publish(base, payload, 1).wait_for_publish(5)
    dev.publish(base, f'{{"ph": 7.2, "ts": "{now.isoformat()}"}}', 1).wait_for_publish(5)
    wait_until(lambda: stored(machine.id), what="the good reading after the bad ones")

    login(make_admin())
    page = client.get(f"/sibol-machines/machines/{machine.id}/device").get_data(as_text=True)
    assert "Refused messages: 4" in page
    assert "not valid JSON" in page and "ph must be a finite number" in page
    assert "colour is not a known field" in page and "not UTF-8" in page
    dev.disconnect()


def test_a_flood_meets_the_per_device_rate_limit(broker, database_url, tmp_path, issue):
    machine = make_machine()
    key = issue(machine)
    env = server_env(database_url, SIBOL_MQTT_URL=broker.url, SIBOL_TELEMETRY_RATE_LIMIT="5 per minute")
    sub = SubscriberProcess(env, tmp_path / "limited.log").start().wait_ready()
    try:
        dev = device_client(broker.port, machine.id, key)
        start = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=10)
        for i in range(8):
            ts = (start + timedelta(seconds=i)).isoformat()
            dev.publish(f"sibol/v1/machines/{machine.id}/telemetry", f'{{"ph": 7, "ts": "{ts}"}}', 1)
        wait_until(lambda: len(stored(machine.id)) == 5, what="five readings")
        from sibol.mqtt.refusals import recent as recent_refusals

        count, rows = wait_until(lambda: (r := recent_refusals(machine.id))[0] == 3 and r, what="3 refusals")
        assert all("rate limit" in r.reason for r in rows)
        dev.disconnect()
    finally:
        sub.stop()


def test_sigkill_of_the_subscriber_and_a_broker_restart_lose_nothing_and_store_nothing_twice(
    broker, sub_env, tmp_path, issue
):
    machines = [make_machine() for _ in range(4)]
    devices = [(m.id, issue(m)) for m in machines]
    sub = SubscriberProcess(sub_env, tmp_path / "sub1.log").start().wait_ready()
    acked: dict[int, set[datetime]] = {}
    stop = threading.Event()
    stream = threading.Thread(
        target=publish_stream, args=(broker.port, devices, 400, acked, stop), daemon=True
    )
    stream.start()
    try:
        wait_until(lambda: sum(len(stored(m.id)) for m in machines) > 100, what="a stream under way")
        sub.kill()  # mid-stream: its uncommitted batch and unsent acks go with it
        time.sleep(1)
        sub = SubscriberProcess(sub_env, tmp_path / "sub2.log").start()
        time.sleep(1.5)
        broker.restart()  # SIGTERM and start again: the broker keeps the queued messages
        stream.join(timeout=60)
    finally:
        stop.set()
        stream.join(timeout=10)
    try:
        total = sum(len(v) for v in acked.values())
        assert total >= 1000, f"only {total} readings were acknowledged"

        def all_stored():
            return all(acked.get(m.id, set()) <= set(stored(m.id)) for m in machines)

        wait_until(all_stored, timeout=60, what="every acknowledged reading stored")
        db.session.rollback()
        for m in machines:
            rows = db.session.scalar(
                select(func.count()).select_from(Reading).where(Reading.machine_id == m.id)
            )
            assert rows == len(set(stored(m.id))) <= 400
    finally:
        sub.stop()


def test_two_subscribers_share_one_stream(broker, sub_env, tmp_path, issue):
    machines = [make_machine() for _ in range(3)]
    devices = [(m.id, issue(m)) for m in machines]
    subs = [
        SubscriberProcess(sub_env, tmp_path / f"share-{n}.log", name=n, group="sibol").start()
        for n in ("a", "b")
    ]
    try:
        for s in subs:
            s.wait_ready()
        acked: dict[int, set[datetime]] = {}
        publish_stream(broker.port, devices, 150, acked, threading.Event())
        wait_until(
            lambda: all(acked[m.id] <= set(stored(m.id)) for m in machines),
            timeout=30,
            what="the stream stored",
        )
        for m in machines:
            assert len(stored(m.id)) == len(acked[m.id]) == 150
    finally:
        for s in subs:
            s.stop()
    for n in ("a", "b"):
        log = (tmp_path / f"share-{n}.log").read_text()
        assert "stored" in log and any(
            int(line.split("stored ")[1].split()[0]) > 0 for line in log.splitlines() if "batch:" in line
        ), f"subscriber {n} stored nothing"
