"""Devices at the broker: the embedded Mosquitto's set-up, each device's identity (its machine id
and key, through the dynamic-security plugin), the "telemetry" handler of the subscriber and the
MQTT device simulator. The transport itself (publish, the subscriber) is the platform's sibol.mqtt.

Public: `key_changed(machine_id, raw_key)`, called after each key change (sibol.devices.keys).
"""

from __future__ import annotations

from ...devices import service as devices
from .credentials import key_changed

devices.on_key_changed(key_changed)

__all__ = ["key_changed"]
