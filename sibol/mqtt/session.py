"""The subscriber's session at the broker: its client id, how it connects, and creating it ahead.

A persistent session is where the broker keeps what devices publish while the subscriber is away;
before it exists, a reading has no taker and Mosquitto drops it after acknowledging it to the
device. `hold_session()` connects once as the subscriber would, subscribes and leaves, so the
session exists from then on: the embedded broker's start-up runs it before devices may connect.
"""

from __future__ import annotations

import threading

from flask import Flask
from paho.mqtt.client import Client
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from . import dispatch
from .settings import Broker, new_client

RECEIVE_MAXIMUM = 2000  # unacknowledged messages the broker may send us (more than one batch)
SESSION_NEVER_EXPIRES = 0xFFFFFFFF
HANDLER_LOADER = "sibol_mqtt_handlers"  # app.extensions key: the function importing the handlers


def client_id(name: str) -> str:
    """The subscriber's fixed client id, the key of its session (never a device's: see
    docs/telemetry.md, client ids)."""
    return f"sibol-subscriber-{name}"


def connect_properties() -> Properties:
    """MQTT 5 CONNECT properties: a session that never expires, and our Receive Maximum."""
    props = Properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = SESSION_NEVER_EXPIRES
    props.ReceiveMaximum = RECEIVE_MAXIMUM
    return props


def topics(app: Flask, group: str | None) -> list[str]:
    """The filters the subscriber subscribes to: one per registered handler's suffix."""
    load = app.extensions.get(HANDLER_LOADER)
    if load is not None:
        load()
    return dispatch.subscriptions(group)


def hold_session(app: Flask, broker: Broker, name: str = "1", timeout: float = 10.0) -> list[str]:
    """Connect as subscriber `name` (clean start off), subscribe to its topics with QoS 1 and
    disconnect normally: the broker then keeps its session and queues every matching message.
    Returns the topics. Raises RuntimeError when the broker refuses or does not answer in time."""
    wanted = topics(app, None)
    done = threading.Event()
    failure: list[str] = []

    def on_connect(client: Client, _u, _f, reason, _p) -> None:
        if reason.is_failure:
            failure.append(f"the broker refused the subscriber's session: {reason}")
            done.set()
        else:
            client.subscribe([(t, 1) for t in wanted])

    def on_subscribe(_c, _u, _mid, codes, _p) -> None:
        refused = [str(c) for c in codes if c.is_failure]
        if refused:
            failure.append(f"the broker refused the subscriber's topics: {refused}")
        done.set()

    client = new_client(broker, client_id(name))
    client.on_connect, client.on_subscribe = on_connect, on_subscribe
    client.connect(broker.host, broker.port, keepalive=30, clean_start=False, properties=connect_properties())
    client.loop_start()
    try:
        if not done.wait(timeout):
            failure.append("the broker did not answer the subscriber's session set-up")
    finally:
        client.disconnect()
        client.loop_stop()
    if failure:
        raise RuntimeError(failure[0])
    return wanted
