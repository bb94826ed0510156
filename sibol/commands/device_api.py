"""/api/device/commands: a controller takes its machine's queued commands and answers each one.

Authenticated by the device key alone (no account, cookie or CSRF token): the key names the
machine, so a device only ever sees and answers its own machine's commands.
"""

from __future__ import annotations

from flask import Blueprint

from ..api import json_body
from ..devices.service import calling_device, device_rate_limit
from ..identity.access import public
from . import service as commands

bp = Blueprint("device_commands", __name__)


@bp.get("/device/commands")
@public  # authenticated by the device key, below
@device_rate_limit
def poll_commands():
    """The machine's queued commands, oldest first; each is now delivered (Authorization: Device <key>)"""
    device = calling_device()
    return {"commands": commands.deliver_pending(device.machine_id)}


@bp.post("/device/commands/<command_id>/result")
@public
@device_rate_limit
def command_result(command_id: str):
    """The device's answer: {"status": "executed" | "failed", "detail": "..."} (409 for a second answer)"""
    device = calling_device()
    body = json_body()
    cmd = commands.record_result(device.machine_id, command_id, body.get("status"), body.get("detail"))
    return {"success": True, "id": cmd.id, "status": cmd.status}


for _view in (poll_commands, command_result):
    _view.sibol_csrf_exempt = True  # type: ignore[attr-defined]
