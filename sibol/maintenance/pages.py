"""The Maintenance page: tabs, search and filters in the query string, forms that post back.

Everything works without JavaScript: the dialogs open from links (?new=1, ?filters=1,
?request=<id>) and their forms post multipart (with CSRF) to the routes below. The island only
opens the same dialogs in place and previews the chosen image.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.exceptions import RequestEntityTooLarge

from ..data.export import wants_csv
from ..data.listing import last_page, page_args_lenient, query_url
from ..errors import ServiceError
from ..i18n.localtime import local_date, local_datetime, today
from ..identity.access import module_required
from ..inputs.fields import field_errors
from ..inputs.uploads import MAX_UPLOAD_MB, image_response
from ..models import ModuleId
from ..web.offline import offline_page
from ..web.safe_actions import confirmation_page, needs_confirmation, offer_undo, take_undo
from . import exports, presentation, service
from .queries import list_requests, parse_list_query
from .rules import operators
from .uploads import attachment_file, read_uploads

bp = Blueprint("maintenance", __name__)

LIST_ARGS = ("tab", "q", "status", "priority", "date", "per_page")


def _list_args() -> list[tuple[str, str]]:
    """The current tab, search, filters and page size, as (name, value) pairs."""
    return [(k, v) for k in LIST_ARGS for v in request.args.getlist(k) if v != ""]


def _url(
    endpoint: str = "maintenance.index",
    *,
    drop: tuple[tuple[str, str | None], ...] = (),
    add: dict | None = None,
    keep: bool = True,
    **values,
) -> str:
    """A URL with the current list arguments, minus `drop` (name, value|None), plus `add`."""
    pairs = _list_args() if keep else []
    for name, value in drop:
        pairs = [(k, v) for k, v in pairs if not (k == name and (value is None or v == value))]
    for name, value in (add or {}).items():
        pairs = [(k, v) for k, v in pairs if k != name] + [(name, str(value))]
    return query_url(endpoint, pairs, **values)


def fmt_date(value: date | None) -> str:
    return local_date(value) if value else "—"


def fmt_time(value: datetime | None) -> str:
    return local_datetime(value)


def _detail_context() -> dict:
    return {
        "operators": operators(),
        "min_due": today().isoformat(),
        "max_upload_bytes": service.MAX_UPLOAD_BYTES,
        **presentation.page_context(),
        "url": _url,
        "fmt_date": fmt_date,
        "fmt_time": fmt_time,
    }


def _render(
    status: int = 200,
    *,
    form: dict | None = None,
    form_errors: dict | None = None,
    detail_id: int | None = None,
    detail_error: str | None = None,
    detail_values: dict | None = None,
    dialog: str | None = None,
):
    query = parse_list_query(request.args)
    page, per_page = page_args_lenient()
    rows, total = list_requests(query, page=page, per_page=per_page)
    if rows == [] and total and page > 1:  # past the end: show the last page
        page = last_page(page, total, per_page)
        rows, total = list_requests(query, page=page, per_page=per_page)
    detail = None
    if detail_id is None and request.args.get("request", "").isdecimal():
        detail_id = int(request.args["request"])
    if detail_id is not None:
        try:
            detail = service.get_request(detail_id)
        except ServiceError as err:
            flash(err.message, "error")
            status = 404 if status == 200 else status
    if dialog is None:
        if request.args.get("new") and query.tab == "request":
            dialog = "request"
        elif request.args.get("filters"):
            dialog = "filters"
    return render_template(
        "maintenance/index.html",
        query=query,
        rows=rows,
        total=total,
        page=page,
        per_page=per_page,
        proposed_number=(form or {}).get("requestNumber") or service.propose_request_number(),
        form=form or {},
        form_errors=form_errors or {},
        open_dialog=dialog,
        detail=detail,
        detail_error=detail_error,
        detail_values=detail_values or {},
        max_upload_mb=MAX_UPLOAD_MB,
        **_detail_context(),
    ), status


@bp.get("/maintenance")
@module_required(ModuleId.MAINTENANCE)
@offline_page
def index():
    if wants_csv():
        return exports.requests_csv(parse_list_query(request.args))
    return _render()


@bp.get("/maintenance/requests/<int:request_id>/dialog")
@module_required(ModuleId.MAINTENANCE)
@offline_page
def detail_dialog(request_id: int):
    """The detail dialog alone, for the island to open in place (the same HTML as ?request=).
    Marked for the service worker, which keeps it: its Add Remark works with no signal."""
    detail = service.get_request(request_id)
    return render_template(
        "maintenance/_detail_dialog.html",
        detail=detail,
        detail_error=None,
        detail_values={},
        **_detail_context(),
    )


@bp.post("/maintenance/requests")
@module_required(ModuleId.MAINTENANCE)
def create():
    form = {k: request.form.get(k, "") for k in service.CREATE_FIELDS}
    try:
        req = service.create_from_form(form, read_uploads(request.files.getlist("file")), actor=current_user)
    except ServiceError as err:
        return _render(err.status, form=form, form_errors=field_errors(err), dialog="request")
    assignee = req.assignee.full_name if req.assignee else "nobody"
    flash(
        _(
            "Maintenance request #%(request_number)s was created and assigned to %(assignee)s.",
            request_number=req.request_number,
            assignee=assignee,
        ),
        "success",
    )
    return redirect(url_for("maintenance.index", tab="pending"))


def _act(
    request_id: int,
    call: Callable[..., Any],
    done: str,
    then: Callable[[Any, str], None] | None = None,
    **fields: str,
):
    """Runs one action on a request: `call(request_id, actor=..., arg=posted value, ...)` with the
    form field named for each argument in `fields`. Then flashes `done` on the tab the request is
    now on; it may name the request's %(n)s, %(date)s (due) and %(name)s (assignee), and
    `then(request, message)` runs before. On refusal the request's dialog shows again with the message."""
    values = {k: request.form.get(k, "") for k in ("dueDate", "remarks", "assignedTo")}
    try:
        req = call(request_id, actor=current_user, **{arg: values[field] for arg, field in fields.items()})
    except ServiceError as err:
        if err.status == 404:
            flash(err.message, "error")
            return redirect(_url())
        return _render(err.status, detail_id=request_id, detail_error=err.message, detail_values=values)
    assignee = req.assignee.full_name if req.assignee else ""
    message = done % {"n": req.request_number, "date": fmt_date(req.due_date), "name": assignee}
    if then is not None:
        then(req, message)
    flash(message, "success")
    return redirect(url_for("maintenance.index", tab=service.tab_of(req)))


@bp.post("/maintenance/requests/<int:request_id>/renew")
@module_required(ModuleId.MAINTENANCE)
def renew(request_id: int):
    done = _("Request #%(n)s was renewed until %(date)s.")
    return _act(request_id, service.renew_request, done, due_date="dueDate", remarks="remarks")


def _ask_first(request_id: int, title: str, message: str, label: str, *, danger: bool = True):
    """The confirmation page of a final action on an on-going request, until confirmed;
    None when confirmed or when the service will refuse anyway."""
    req = service.find_request(request_id)
    if not needs_confirmation() or req is None or not service.is_ongoing(req):
        return None
    n = req.request_number
    return confirmation_page(
        title % {"n": n}, message % {"n": n}, label, _url(add={"request": request_id}), danger=danger
    )


@bp.post("/maintenance/requests/<int:request_id>/complete")
@module_required(ModuleId.MAINTENANCE)
def complete(request_id: int):
    return _ask_first(
        request_id,
        _("Complete request #%(n)s?"),
        _("Request #%(n)s moves to Complete Maintenance and can no longer be renewed or canceled."),
        _("Complete request"),
        danger=False,
    ) or _act(request_id, service.complete_request, _("Request #%(n)s was completed."), remarks="remarks")


def _offer_undo_cancel(req, message: str) -> None:
    offer_undo("maintenance-cancel", req.id, message, url_for("maintenance.undo_cancel", request_id=req.id))


@bp.post("/maintenance/requests/<int:request_id>/cancel")
@module_required(ModuleId.MAINTENANCE)
def cancel(request_id: int):
    done = _("Request #%(n)s was canceled.")
    return _ask_first(
        request_id,
        _("Cancel request #%(n)s?"),
        _(
            "Request #%(n)s will be canceled; your remarks are kept as the reason. You can undo this for a few seconds."
        ),
        _("Cancel request"),
    ) or _act(request_id, service.cancel_request, done, then=_offer_undo_cancel, reason="remarks")


@bp.post("/maintenance/requests/<int:request_id>/undo-cancel")
@module_required(ModuleId.MAINTENANCE)
def undo_cancel(request_id: int):
    """Undo of a cancel, within the few seconds it is offered (sibol/web/safe_actions.py)."""
    if not take_undo("maintenance-cancel", request_id):
        flash(_("It is too late to undo that; the request stays canceled."), "error")
        return redirect(url_for("maintenance.index", tab="complete"))
    return _act(request_id, service.reopen_request, _("Request #%(n)s is on-going again."))


@bp.post("/maintenance/requests/<int:request_id>/remarks")
@module_required(ModuleId.MAINTENANCE)
def remark(request_id: int):
    done = _("Your remark on request #%(n)s was saved.")
    return _act(request_id, service.add_remark, done, remarks="remarks")


@bp.post("/maintenance/requests/<int:request_id>/assign")
@module_required(ModuleId.MAINTENANCE)
def assign(request_id: int):
    done = _("Request #%(n)s is now assigned to %(name)s.")
    return _act(request_id, service.assign_request, done, assigned_to="assignedTo")


@bp.get("/maintenance/attachments/<int:attachment_id>")
@module_required(ModuleId.MAINTENANCE)
def attachment(attachment_id: int):
    path, item = attachment_file(attachment_id)
    return image_response(path, item.content_type, download_name=item.original_name)


@bp.errorhandler(RequestEntityTooLarge)
def too_large(_err):
    """Past the app's hard stop (11 MB) the body is unread: show the modal with the reason."""
    if request.endpoint == "maintenance.create":
        return _render(413, form_errors={"file": "The image must be 10 MB or smaller."}, dialog="request")
    flash(_("The upload is too large (10 MB at most)."), "error")
    return _render(413)
