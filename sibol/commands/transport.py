"""The one place where a newly queued command leaves for the device by a push transport.

Devices always take their commands over HTTP (GET /api/device/commands). When MQTT is configured
(SIBOL_MQTT or SIBOL_MQTT_URL), a command is also published, as soon as its queueing is
committed, to `sibol/v1/machines/{id}/commands` (QoS 1) with the payload
`{"id", "command", "value", "createdAt"}` (service.device_json). When the broker acknowledges it
for a subscriber of that topic (the device connected, or its persistent session held while it
is away), command_queued() says so and service.send() marks the command delivered, so a later
HTTP poll does not hand it out again.
When the publish fails (no broker, no answer in time, nobody subscribed) the command stays
queued and the device's next HTTP poll delivers it.

The answers come back on `sibol/v1/machines/{id}/commands/result` (commands/mqtt.py).
"""

from __future__ import annotations

import logging

from ..mqtt import mqtt_enabled, publish

log = logging.getLogger(__name__)


def command_queued(machine_id: int, payload: dict) -> bool:
    """Called after the command's commit (a failed publish must never undo the queueing).
    True when the broker took the command for the device."""
    if not mqtt_enabled():
        return False
    try:
        return publish(machine_id, "commands", payload)
    except Exception:  # the queued command stands; the HTTP poll still delivers it
        log.exception("publishing command %s to machine %s failed", payload.get("id"), machine_id)
        return False
