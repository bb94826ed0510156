"""/api/machines/{id}/commands: send, list and cancel a machine's commands (people's clients).

The device's own routes (GET /api/device/commands, its results) are in sibol/commands/device_api.py.
"""

from __future__ import annotations

from flask import Blueprint, request
from flask_login import current_user

from ..api import json_body
from ..data.listing import Page, page_args, page_json
from ..identity.access import module_required
from ..models import ModuleId
from . import service
from .serializers import command_json

bp = Blueprint("commands", __name__)


@bp.post("/machines/<machine_id>/commands")
@module_required(ModuleId.MACHINES)  # unsafe: Admin, Barangay Staff, Operator (permissions.py)
def send(machine_id: str):
    """Queue a command: {"command": "stir", "value": 10}"""
    body = json_body()
    cmd = service.send(
        machine_id,
        body.get("command"),
        body.get("value"),
        actor=current_user,
    )
    return command_json(cmd, with_events=False), 201


@bp.get("/machines/<machine_id>/commands")
@module_required(ModuleId.MACHINES)
def list_commands(machine_id: str):
    """The machine's commands, newest first, each with its changes (?status=, page, per_page)"""
    status = request.args.get("status", "").strip() or None
    page, per_page = page_args()
    _machine, rows, total = service.list_commands(machine_id, status=status, page=page, per_page=per_page)
    return page_json(Page(rows, total, page, per_page), command_json)


@bp.post("/machines/<machine_id>/commands/<command_id>/cancel")
@module_required(ModuleId.MACHINES)
def cancel(machine_id: str, command_id: str):
    """Cancel a command while it is still queued (409 once delivered or ended)"""
    cmd = service.cancel(machine_id, command_id, actor=current_user)
    return {"success": True, **command_json(cmd)}
