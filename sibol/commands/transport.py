"""The one place where a newly queued command leaves for the device by a push transport.

Devices always take their commands over HTTP (GET /api/device/commands). When MQTT ingestion is on,
a command is also published, as soon as it is queued, to `sibol/v1/machines/{id}/commands` (QoS 1)
with the payload `{"id", "command", "value", "createdAt"}` (service.device_json).

Today this calls nothing: the MQTT transport is wired here by the lead. The wiring is:

    from ..mqtt import publish  # publish(machine_id, subtopic, payload) -> bool
    if publish(machine_id, "commands", payload):
        service.mark_delivered(machine_id, payload["id"])  # a later HTTP poll will not repeat it

and the subscriber routes `commands/result` messages (`{"id", "status", "detail"}`) to
service.record_result(machine_id, id, status, detail), which applies the same rules as the HTTP
route (404 for another machine's command, 409 for a second answer).
"""

from __future__ import annotations


def command_queued(machine_id: int, payload: dict) -> None:
    """Called after the command's commit (a failed publish must never undo the queueing)."""
    return None
