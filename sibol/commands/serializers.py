"""JSON shapes of commands as people's clients read them."""

from __future__ import annotations

from ..models.commands import Command, CommandEvent
from . import rules
from .service import ts_json


def event_json(e: CommandEvent) -> dict:
    return {"status": e.status, "at": ts_json(e.at), "by": e.actor_name, "detail": e.detail or None}


def command_json(c: Command, *, with_events: bool = True) -> dict:
    """The issue's shape first ({id, command, value, status, createdAt, expiresAt}), then the rest."""
    body = {
        "id": c.id,
        "command": c.command,
        "value": rules.value_json(c.command, c.value),
        "status": c.status,
        "createdAt": ts_json(c.created_at),
        "expiresAt": ts_json(c.expires_at),
        "machineId": c.machine_id,
        "createdBy": {"id": c.created_by_id, "name": c.created_by_name},
        "deliveredAt": ts_json(c.delivered_at),
        "finishedAt": ts_json(c.finished_at),
        "detail": c.detail or None,
    }
    if with_events:
        body["events"] = [event_json(e) for e in c.events]
    return body
