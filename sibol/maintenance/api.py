"""/api/maintenance/...: the requests for islands and other clients (JSON, multipart for images)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, request
from flask_babel import gettext as _
from flask_login import current_user

from ..api import json_body
from ..data.export import wants_csv
from ..data.listing import Page, page_args, page_json
from ..errors import Unsupported
from ..identity.access import module_required
from ..models import ModuleId
from . import exports, queries, rules, service
from .serializers import operator_json, request_json
from .uploads import Upload, read_uploads

bp = Blueprint("maintenance", __name__)


def _input(fields: tuple[str, ...]) -> tuple[dict, list[Upload]]:
    """The body's fields and files: multipart/urlencoded form, or a JSON object (no files)."""
    if request.mimetype in ("multipart/form-data", "application/x-www-form-urlencoded"):
        values = {name: request.form.get(name) for name in fields}
        return values, read_uploads(request.files.getlist("file"))
    if request.get_data(cache=True) and not request.is_json:
        raise Unsupported(_("Send the body as JSON or as multipart/form-data."))
    body = json_body(required=False)
    return {name: body.get(name) for name in fields}, []


@bp.get("/maintenance/requests")
@module_required(ModuleId.MAINTENANCE)
def list_requests():
    query = queries.parse_list_query(request.args, strict=True)
    if wants_csv():
        return exports.requests_csv(query)
    page, per_page = page_args()
    rows, total = queries.list_requests(query, page=page, per_page=per_page)
    return {**page_json(Page(rows, total, page, per_page), request_json), "tab": query.tab}


@bp.post("/maintenance/requests")
@module_required(ModuleId.MAINTENANCE)
def create_request():
    values, files = _input(service.CREATE_FIELDS)
    req = service.create_from_form(values, files, actor=current_user)
    message = _("Maintenance request #%(request_number)s was created.", request_number=req.request_number)
    return {"success": True, "message": message, "request": request_json(req, with_history=True)}, 201


@bp.get("/maintenance/requests/<int:request_id>")
@module_required(ModuleId.MAINTENANCE)
def get_request(request_id: int):
    return {"success": True, "request": request_json(service.get_request(request_id), with_history=True)}


def _answer(req, message: str):
    return {"success": True, "message": message, "request": request_json(req, with_history=True)}


def _act(request_id: int, call: Callable[..., Any], message: Callable[[Any], str], **fields: str):
    """One action on a request: `call(request_id, actor=..., arg=the body's field, ...)` with the
    body field named for each argument in `fields`; answers with the request and `message(request)`."""
    values, _rest = _input(tuple(fields.values()))
    req = call(request_id, actor=current_user, **{arg: values[field] for arg, field in fields.items()})
    return _answer(req, message(req))


@bp.post("/maintenance/requests/<int:request_id>/renew")
@module_required(ModuleId.MAINTENANCE)
def renew(request_id: int):
    return _act(
        request_id,
        service.renew_request,
        lambda req: _("Request #%(n)s was renewed.", n=req.request_number),
        due_date="dueDate",
        remarks="remarks",
    )


@bp.post("/maintenance/requests/<int:request_id>/complete")
@module_required(ModuleId.MAINTENANCE)
def complete(request_id: int):
    return _act(
        request_id,
        service.complete_request,
        lambda req: _("Request #%(n)s was completed.", n=req.request_number),
        remarks="remarks",
    )


@bp.post("/maintenance/requests/<int:request_id>/cancel")
@module_required(ModuleId.MAINTENANCE)
def cancel(request_id: int):
    values, _rest = _input(("reason", "remarks"))
    reason = values["reason"] if values["reason"] is not None else values["remarks"]
    req = service.cancel_request(request_id, actor=current_user, reason=reason)
    return _answer(req, _("Request #%(n)s was canceled.", n=req.request_number))


@bp.post("/maintenance/requests/<int:request_id>/remarks")
@module_required(ModuleId.MAINTENANCE)
def remark(request_id: int):
    return _act(request_id, service.add_remark, lambda _req: _("Remark saved."), remarks="remarks")


@bp.post("/maintenance/requests/<int:request_id>/assign")
@module_required(ModuleId.MAINTENANCE)
def assign(request_id: int):
    return _act(
        request_id,
        service.assign_request,
        lambda req: _(
            "Request #%(n)s is now assigned to %(name)s.",
            n=req.request_number,
            name=req.assignee.full_name if req.assignee else "",
        ),
        assigned_to="assignedTo",
    )


@bp.get("/maintenance/operators")
@module_required(ModuleId.MAINTENANCE)
def operators():
    return {"success": True, "operators": [operator_json(a) for a in rules.operators()]}


@bp.get("/maintenance/next-number")
@module_required(ModuleId.MAINTENANCE)
def next_number():
    """A free request number to show in a client's form (creation checks it again)."""
    return {"success": True, "requestNumber": service.propose_request_number()}
