"""The MQTT transport between the console and the machines' controllers, knowing no feature.

- settings: which broker (SIBOL_MQTT_URL, or the embedded one with SIBOL_MQTT=1), paho clients.
- publisher: `publish(machine_id, subtopic, payload) -> bool`, QoS 1 to one machine's topic.
- dispatch: `register(suffix, handler)`, what the subscriber does with a topic suffix's messages.
- intake: the steps every handler takes first (retained refused, the device request limit, JSON).
- refusals: refused messages and dead letters, counted on their machine.
- subscriber: the loop behind `flask mqtt subscribe` (batches, acknowledged after the handlers).
- cli: the `flask mqtt` group and its `subscribe` command.

Features register their handlers when their handler module is imported; sibol/cli.py decides
which modules the subscriber imports. A device's key is sibol/devices/'s; its identity at the
broker (the configuration, the dynamic-security clients) is telemetry's (sibol/telemetry/mqtt/).
"""

from __future__ import annotations

from .dispatch import Message, register
from .publisher import publish
from .settings import mqtt_enabled

__all__ = ["Message", "mqtt_enabled", "publish", "register"]
