"""OpenAPI descriptions of /api/machines/{id}/commands (merged into sibol/api/schemas.py OPERATIONS)."""

from __future__ import annotations

from ..api.schemas import PAGING, obj, page_of
from ..models.commands import CommandStatus
from .rules import KINDS

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
}
