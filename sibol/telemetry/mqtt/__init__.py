"""MQTT ingestion through Mosquitto: the broker's set-up, device identity at the broker, the
subscriber that stores what devices publish, and publishing to a machine's topics.

Public: `publish(machine_id, subtopic, payload)`, `register(suffix, handler)` and
`key_changed(machine_id, raw_key)` (called by the device-key service).
"""

from __future__ import annotations

from .credentials import key_changed
from .dispatch import Message, register
from .publisher import publish

__all__ = ["Message", "key_changed", "publish", "register"]
