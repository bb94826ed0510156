"""Devices at the broker: the embedded Mosquitto's set-up, each device's identity (its machine id
and key, through the dynamic-security plugin), the "telemetry" handler of the subscriber and the
MQTT device simulator. The transport itself (publish, the subscriber) is the platform's sibol.mqtt.

Public: `key_changed(machine_id, raw_key)` (called by the device-key service).
"""

from __future__ import annotations

from .credentials import key_changed

__all__ = ["key_changed"]
