"""The broker's side of a device's identity and of what it acknowledged, on a real Mosquitto set up
by the console: a device key connects only under its own client id (never the console
subscriber's or another machine's), and a reading the broker acknowledged survives a SIGKILL of
the broker."""

from __future__ import annotations

import queue
import threading
from datetime import UTC, datetime, timedelta

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from sibol.models import RoleId
from tests.factories import make_account, make_machine
from tests.factories_telemetry import healthy
from tests.support.mosquitto import device_client, wait_until

from .stream import iso, stored

NOT_AUTHORISED = 135  # MQTT 5 CONNACK "Not authorized"


def connack(port: int, username: str, password: str, client_id: str) -> int:
    """The CONNACK reason code a CONNECT with these credentials and client id gets (MQTT 5)."""
    answer: queue.Queue[int] = queue.Queue()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    client.username_pw_set(username, password)
    client.on_connect = lambda _c, _u, _f, reason, _p: answer.put(reason.value)
    client.connect("127.0.0.1", port, keepalive=10, clean_start=False)
    client.loop_start()
    try:
        return answer.get(timeout=10)
    finally:
        client.disconnect()
        client.loop_stop()


@pytest.fixture
def operator_headers(api_headers):
    return api_headers(make_account(role=RoleId.OPERATOR, first_name="Olivia", last_name="Opera"))


def test_a_device_key_is_refused_under_any_client_id_but_its_own(
    broker, subscriber, client, operator_headers, issue
):
    one, two = make_machine(), make_machine()
    key_one, key_two = issue(one), issue(two)
    commands: queue.Queue[bytes] = queue.Queue()
    subscribed = threading.Event()
    dev_two = device_client(
        broker.port,
        two.id,
        key_two,
        client_id=f"sibol-device-{two.id}",
        on_message=lambda _c, _u, m: commands.put(m.payload),
        on_subscribe=lambda *_: subscribed.set(),
    )
    dev_two.subscribe(f"sibol/v1/machines/{two.id}/commands", 1)
    assert subscribed.wait(5)
    try:
        for stolen in (
            "sibol-subscriber-1",  # the console's subscriber: its session holds every machine's readings
            f"sibol-device-{two.id}",  # machine 2's own connection and its queued commands
            f"sibol-device-{two.id}-x",  # machine 2 with a suffix
            f"sibol-device-{one.id}{two.id}",  # its own number with another's run on after it
            f"sibol-device-{one.id}-",  # its own, with an empty suffix
            "sibol-publisher-1",
            "anything-else",
        ):
            assert connack(broker.port, str(one.id), key_one, stolen) == NOT_AUTHORISED, stolen
        # Its own id, bare or with a suffix of its choice, still connects.
        assert connack(broker.port, str(one.id), key_one, f"sibol-device-{one.id}") == 0
        assert connack(broker.port, str(one.id), key_one, f"sibol-device-{one.id}-answer") == 0
        # The refused CONNECTs touched nobody's session: machine 2 gets its own command...
        res = client.post(
            f"/api/machines/{two.id}/commands", json={"command": "stir", "value": 5}, headers=operator_headers
        )
        assert res.status_code == 201 and res.json["status"] == "delivered", res.json
        assert dev_two.is_connected()
        assert b'"command":"stir"' in commands.get(timeout=10)
        # ...and the subscriber was never disconnected (it connected once, and stores readings).
        ts = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=1)
        info = dev_two.publish(
            f"sibol/v1/machines/{two.id}/telemetry", str(healthy(ph=7.2, ts=iso(ts))).replace("'", '"'), 1
        )
        info.wait_for_publish(5)
        wait_until(lambda: stored(two.id), what="machine 2's reading")
        log = subscriber.log.read_text()
        assert log.count("connected (session present") == 1 and "lost the broker" not in log
    finally:
        dev_two.disconnect()
        dev_two.loop_stop()


def test_the_console_user_cannot_take_a_device_client_id(broker):
    user, password = broker.url.removeprefix("mqtt://").split("@")[0].split(":")
    assert connack(broker.port, user, password, "sibol-device-7") == NOT_AUTHORISED
    assert connack(broker.port, user, password, "sibol-subscriber-probe") == 0


def test_acknowledged_readings_survive_a_broker_crash(broker, subscriber, issue):
    machine = make_machine()
    key = issue(machine)
    subscriber.stop()  # its session stays at the broker; readings now wait there
    acked: list[int] = []
    dev = device_client(
        broker.port,
        machine.id,
        key,
        on_publish=lambda _c, _u, mid, reason, _p: None if reason.is_failure else acked.append(mid),
    )
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)
    for i in range(100):
        body = str(healthy(ph=7.0, ts=iso(start + timedelta(seconds=i)))).replace("'", '"')
        dev.publish(f"sibol/v1/machines/{machine.id}/telemetry", body, 1)
    wait_until(lambda: len(acked) == 100, what="100 PUBACKs")
    dev.disconnect()
    dev.loop_stop()

    broker.kill()
    broker.start(write=False)
    subscriber.start().wait_ready()
    wait_until(lambda: len(stored(machine.id)) >= 100, timeout=30, what="the 100 readings stored")
    rows = stored(machine.id)
    assert len(rows) == 100 and len(set(rows)) == 100
