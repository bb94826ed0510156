"""OpenAPI descriptions of /api/machines/{id}/commands (merged into sibol/api/schemas.py OPERATIONS)."""

from __future__ import annotations

from ..api.schemas import PAGING, obj, page_of
from ..models.commands import CommandStatus
from .rules import KINDS

KEYED = "Authenticated by the device key (Authorization: Device <key> or X-Device-Key: <key>)"
STATUS = {"type": "string", "enum": [s.value for s in CommandStatus]}
TIME = {"type": "string", "format": "date-time"}
VALUE = {
    "oneOf": [{"type": "integer"}, {"type": "string"}],
    "nullable": True,
    "description": "stir: minutes 1-60; feed_pump: on | off; generator: start | stop; "
    "set_interval: seconds 10-3600; reboot: none",
}
COMMAND = obj(
    {
        "id": {"type": "integer"},
        "command": {"type": "string", "enum": list(KINDS)},
        "value": VALUE,
        "status": STATUS,
        "createdAt": TIME,
        "expiresAt": {
            **TIME,
            "description": "Deadline of delivery while queued; of the answer once delivered",
        },
    },
    "id",
    "command",
    "value",
    "status",
    "createdAt",
    "expiresAt",
)

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.commands.send", "POST"): {
        "status": 201,
        "body": obj(
            {
                "command": {"type": "string", "enum": list(KINDS)},
                "value": VALUE,
            },
            "command",
        ),
        "response": COMMAND,
        "errors": ["400", "404", "409", "415"],
    },
    ("api.commands.list_commands", "GET"): {
        "query": {"status": STATUS, **PAGING},
        "response": page_of(),
        "errors": ["400", "404"],
    },
    ("api.commands.cancel", "POST"): {"response": COMMAND, "errors": ["404", "409"]},
    # The device's side (sibol/commands/device_api.py)
    ("api.device_commands.poll_commands", "GET"): {
        "summary": "The machine's queued commands, oldest first, each now delivered. " + KEYED,
        "response": obj({"commands": {"type": "array", "items": {"type": "object"}}}, "commands"),
        "errors": ["401", "429"],
    },
    ("api.device_commands.command_result", "POST"): {
        "summary": "The device's answer to one of its machine's commands. " + KEYED,
        "body": obj(
            {
                "status": {"type": "string", "enum": ["executed", "failed"]},
                "detail": {"type": "string", "maxLength": 500},
            },
            "status",
        ),
        "errors": ["400", "401", "404", "409", "415", "429"],
    },
}
