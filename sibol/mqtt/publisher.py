"""publish(): a QoS 1 message from the console to one machine's topic (its commands, ...).

Each process keeps one connection to the broker, opened on first use (after gunicorn's fork) and
kept open by paho's network thread. The connection speaks MQTT 5, so the broker's PUBACK says
whether anyone took the message: Mosquitto answers "No matching subscribers" when no client is
subscribed to the topic (and no offline persistent session holds a subscription to it), and
drops the message. publish() reports that as not sent, so the caller can leave the work to
another path (a device that polls over HTTP).
"""

from __future__ import annotations

import json
import logging
import os
import threading

from paho.mqtt.reasoncodes import ReasonCode

from .settings import Broker, broker_settings, new_client, topic

log = logging.getLogger(__name__)
CONNECT_TIMEOUT = 3.0
PUBLISH_TIMEOUT = 5.0
NO_MATCHING_SUBSCRIBERS = 0x10


class _Connection:
    """One process's client, whether it is connected, and the PUBACK reason of each message id."""

    def __init__(self, broker: Broker) -> None:
        self.connected = threading.Event()
        self.reasons: dict[int, ReasonCode] = {}
        self.client = new_client(broker, f"sibol-publisher-{os.getpid()}-{os.urandom(4).hex()}")
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda _c, _u, _f, _r, _p: self.connected.clear()
        self.client.on_publish = self._on_publish
        self.client.reconnect_delay_set(min_delay=1, max_delay=10)
        self.client.connect_async(broker.host, broker.port, keepalive=60)
        self.client.loop_start()

    def _on_connect(self, _c, _u, _f, reason: ReasonCode, _p) -> None:
        if reason.is_failure:
            log.warning("the broker refused the console's publisher: %s", reason)
        else:
            self.connected.set()

    def _on_publish(self, _c, _u, mid: int, reason: ReasonCode, _p) -> None:
        # paho calls this before it marks the message published, so a waiter finds it here.
        self.reasons[mid] = reason


_lock = threading.Lock()
_connections: dict[tuple[int, Broker], _Connection] = {}


def _connection(broker: Broker) -> _Connection | None:
    key = (os.getpid(), broker)
    with _lock:
        found = _connections.get(key)
        if found is None:
            found = _connections[key] = _Connection(broker)
    return found if found.connected.wait(CONNECT_TIMEOUT) else None


def publish(machine_id: int, subtopic: str, payload: dict) -> bool:
    """Send `payload` as JSON with QoS 1 to sibol/v1/machines/{machine_id}/{subtopic}.

    True once the broker has acknowledged it for at least one subscriber (a connected one, or an
    offline persistent session that it queues it for). False when MQTT is not configured, the
    broker is not reachable or did not acknowledge it within a few seconds, or nobody is
    subscribed to the topic. Never raises for a broker's trouble."""
    broker = broker_settings()
    if broker is None:
        return False
    conn = _connection(broker)
    if conn is None:
        log.warning("MQTT publish to machine %s: the broker is not reachable", machine_id)
        return False
    body = json.dumps(payload, separators=(",", ":"))
    info = conn.client.publish(topic(machine_id, subtopic), body, qos=1)
    try:  # RuntimeError when the connection dropped meanwhile, ValueError when paho's queue is full
        info.wait_for_publish(PUBLISH_TIMEOUT)
    except (RuntimeError, ValueError) as err:
        log.warning("MQTT publish to machine %s failed: %s", machine_id, err)
        return False
    reason = conn.reasons.pop(info.mid, None)
    if not info.is_published() or reason is None:
        log.warning("MQTT publish to machine %s: no acknowledgement in time", machine_id)
        return False
    if reason.is_failure or reason.value == NO_MATCHING_SUBSCRIBERS:
        log.info("MQTT publish to %s not taken: %s", topic(machine_id, subtopic), reason)
        return False
    return True
