"""The MQTT device simulator behind `flask telemetry simulate --mqtt`.

Each simulated machine gets a fresh device key (which reaches the broker at once) and its own
MQTT connection, user name its machine id, password its key, exactly as a controller connects;
it publishes one reading per interval with QoS 1 to its telemetry topic.
"""

from __future__ import annotations

import json
import random
import ssl
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from ...devices import service as device_keys
from ...mqtt.settings import Broker, topic
from ..simulate import DigesterState, reading_at
from ..simulator import simulated_machines


def device_client(broker: Broker, machine_id: int, key: str) -> mqtt.Client:
    """A device's connection: MQTT 3.1.1, its machine id and key, a persistent session."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=f"sibol-device-{machine_id}",
        clean_session=False,
        protocol=mqtt.MQTTv311,
    )
    client.username_pw_set(str(machine_id), key)
    if broker.tls:
        client.tls_set_context(ssl.create_default_context())
    return client


def simulate(
    broker: Broker,
    count: int,
    interval: float,
    duration: float,
    fault_rate: float,
    seed: int | None,
    echo: Callable[[str], None] = print,
) -> int:
    """Publish for `duration` seconds (0: forever); returns how many readings the broker acked."""
    rng = random.Random(seed)  # noqa: S311 - simulation, not secrets
    acked = 0
    lock = threading.Lock()

    def on_publish(_c, _u, _mid, reason, _p) -> None:
        nonlocal acked
        with lock:
            acked += 1

    devices = []
    for machine in simulated_machines(count):
        key = device_keys.issue_key(machine.id, actor_id=None)
        client = device_client(broker, machine.id, key)
        client.on_publish = on_publish
        client.connect_async(broker.host, broker.port, keepalive=60)
        client.loop_start()
        state = DigesterState(rng=random.Random(rng.random()))  # noqa: S311
        devices.append((machine.id, client, state))
        echo(f"Machine #{machine.id} {machine.name}: new device key, connecting as user {machine.id}")
    started = time.monotonic()
    try:
        while True:
            now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
            for machine_id, client, state in devices:
                reading = {**reading_at(state, now, fault_rate=fault_rate), "ts": now.isoformat() + "Z"}
                client.publish(topic(machine_id, "telemetry"), json.dumps(reading), qos=1)
            if duration and time.monotonic() - started + interval > duration:
                break
            time.sleep(interval)
        time.sleep(min(2.0, interval))  # the last acknowledgements
    finally:
        for _machine_id, client, _state in devices:
            client.disconnect()
            client.loop_stop()
    return acked
