"""publish(): a QoS 1 message from the console to one machine's topic (its commands, ...).

Each process keeps one connection to the broker, opened on first use (after gunicorn's fork) and
kept open by paho's network thread.
"""

from __future__ import annotations

import json
import logging
import os
import threading

import paho.mqtt.client as mqtt

from .settings import Broker, broker_settings, new_client, topic

log = logging.getLogger(__name__)
CONNECT_TIMEOUT = 3.0
PUBLISH_TIMEOUT = 5.0

_lock = threading.Lock()
_clients: dict[tuple[int, Broker], tuple[mqtt.Client, threading.Event]] = {}


def _connected_client(broker: Broker) -> mqtt.Client | None:
    key = (os.getpid(), broker)
    with _lock:
        found = _clients.get(key)
        if found is None:
            connected = threading.Event()
            client = new_client(broker, f"sibol-publisher-{os.getpid()}-{os.urandom(4).hex()}")
            client.on_connect = lambda _c, _u, _f, reason, _p: (
                connected.set() if not reason.is_failure else None
            )
            client.on_disconnect = lambda _c, _u, _f, _r, _p: connected.clear()
            client.reconnect_delay_set(min_delay=1, max_delay=10)
            client.connect_async(broker.host, broker.port, keepalive=60)
            client.loop_start()
            found = _clients[key] = (client, connected)
    client, connected = found
    return client if connected.wait(CONNECT_TIMEOUT) else None


def publish(machine_id: int, subtopic: str, payload: dict) -> bool:
    """Send `payload` as JSON with QoS 1 to sibol/v1/machines/{machine_id}/{subtopic}.

    Returns True once the broker has acknowledged it; False when MQTT is not configured or the
    broker did not acknowledge it within a few seconds."""
    broker = broker_settings()
    if broker is None:
        return False
    client = _connected_client(broker)
    if client is None:
        log.warning("MQTT publish to machine %s: the broker is not reachable", machine_id)
        return False
    info = client.publish(topic(machine_id, subtopic), json.dumps(payload, separators=(",", ":")), qos=1)
    try:
        info.wait_for_publish(PUBLISH_TIMEOUT)
    except (RuntimeError, ValueError) as err:
        log.warning("MQTT publish to machine %s failed: %s", machine_id, err)
        return False
    return info.is_published()
