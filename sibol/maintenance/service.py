"""Maintenance requests: the rules of request, assign, renew, remark, complete and cancel.

Life cycle: a request is made with an assignee (the modal's Assigned to is required), so it
starts on-going; its history records 'created' and 'assigned'. From on-going it is renewed (a
new due date with a remark), reassigned, remarked on, completed, or canceled with a reason.
Completed and canceled are final.

Tabs: Request = every request (the register, newest first); Pending = on-going (by due date);
Complete = completed and canceled (most recent first; canceled ones carry a grey badge).
Calendar dates (request, due, completed) are Asia/Manila dates; times are naive UTC.
"""

from __future__ import annotations

import secrets
import typing
from collections.abc import Iterable, Mapping
from datetime import date

from flask_babel import gettext as _
from sqlalchemy import CursorResult, select, update
from sqlalchemy.exc import IntegrityError

from ..data.rows import get_by_id
from ..errors import Conflict, Invalid, NotFound
from ..extensions import db
from ..i18n.localtime import today
from ..inputs.fields import Errors
from ..inputs.numbers import whole_text
from ..inputs.uploads import MAX_UPLOAD_BYTES as MAX_UPLOAD_BYTES
from ..models import (
    Account,
    MaintenanceAttachment,
    MaintenanceEvent,
    MaintenanceEventKind,
    MaintenancePriority,
    MaintenanceRequest,
    MaintenanceStatus,
    utcnow,
)
from .rules import (
    MAX_ISSUE,
    MAX_PHONE,
    MAX_REMARKS,
    active_operator,
    parse_due_date,
    parse_priority,
    text_value,
)
from .uploads import Upload as Upload
from .uploads import checked_images, display_name, remove_files, store_images

NUMBER_MIN, NUMBER_MAX = 100000, 199999
NUMBER_ATTEMPTS = 25

TABS = ("request", "pending", "complete")
DEFAULT_TAB = "complete"
PERIODS = {"weekly": ("Weekly", 7), "monthly": ("Monthly", 30), "yearly": ("Yearly", 365)}


def _state_word(status: str) -> str:
    """How an error message names a state: 'on-going', 'completed', 'canceled' (translated)."""
    words: dict[str, str] = {
        MaintenanceStatus.ONGOING: _("on-going"),
        MaintenanceStatus.COMPLETED: _("completed"),
        MaintenanceStatus.CANCELED: _("canceled"),
    }
    return words.get(str(status), str(status))


# Request numbers ---------------------------------------------------------------------------


def _random_number() -> int:
    return NUMBER_MIN + secrets.randbelow(NUMBER_MAX - NUMBER_MIN + 1)


def _number_taken(number: int) -> bool:
    return (
        db.session.scalar(select(MaintenanceRequest.id).where(MaintenanceRequest.request_number == number))
        is not None
    )


def propose_request_number() -> int:
    """A random number not in use now (the modal shows it; creation checks it again)."""
    for _attempt in range(NUMBER_ATTEMPTS):
        number = _random_number()
        if not _number_taken(number):
            return number
    return _random_number()


def _proposed(value: object) -> int | None:
    if isinstance(value, str):
        value = whole_text(value)
    if isinstance(value, int) and not isinstance(value, bool) and NUMBER_MIN <= value <= NUMBER_MAX:
        return value
    return None  # anything else: the server picks one


# Writes ------------------------------------------------------------------------------------


def _event(
    req: MaintenanceRequest,
    kind: MaintenanceEventKind,
    actor: Account | None,
    *,
    note: str | None = None,
    due_date: date | None = None,
) -> MaintenanceEvent:
    event = MaintenanceEvent(
        kind=kind.value,
        note=note,
        due_date=due_date,
        actor_id=actor.id if actor else None,
        actor_name=(actor.full_name if actor else "System")[:210],
        created_at=utcnow(),
    )
    req.events.append(event)
    return event


CREATE_FIELDS = ("assignedTo", "issue", "priority", "dueDate", "contactDetails", "requestNumber")


def create_from_form(values: Mapping[str, object], files: Iterable[Upload], *, actor: Account | None):
    """create_request with the fields as a form or JSON body names them (CREATE_FIELDS)."""
    return create_request(
        actor=actor,
        assigned_to=values.get("assignedTo"),
        issue=values.get("issue"),
        priority=values.get("priority"),
        due_date=values.get("dueDate"),
        contact=values.get("contactDetails"),
        files=files,
        request_number=values.get("requestNumber"),
    )


def create_request(
    *,
    actor: Account | None,
    assigned_to: object,
    issue: object,
    priority: object,
    due_date: object,
    files: Iterable[Upload] = (),
    contact: object = None,
    request_number: object = None,
) -> MaintenanceRequest:
    """Creates an on-going request assigned to an operator, with its images and history.

    Raises Invalid (field named), TooLarge (over 10 MB) and Conflict (no number left).
    Nothing is saved, and no file is left behind, when it raises.
    """
    errors = Errors()
    check = errors.check
    # Every field is checked, so a form can show all its errors at once.
    assignee = check(active_operator, assigned_to)
    issue_text = check(text_value, issue, "issue", _("Issue"), max_length=MAX_ISSUE, required=True)
    priority_value = check(parse_priority, priority)
    due = check(parse_due_date, due_date)
    phone = check(
        text_value, contact, "contactDetails", _("Contact detail"), max_length=MAX_PHONE, required=False
    )
    images = check(checked_images, files)
    errors.raise_if_any()

    names = store_images(images or [])
    try:
        wanted = _proposed(request_number)
        for attempt in range(NUMBER_ATTEMPTS):
            number = wanted if attempt == 0 and wanted is not None else _random_number()
            if _number_taken(number):
                continue
            req = _build_request(
                actor, number, issue_text, priority_value, due, assignee, phone, names, images
            )
            db.session.add(req)
            try:
                db.session.commit()
            except IntegrityError:
                # Someone took the number between the check and the insert: try another.
                db.session.rollback()
                if not _number_taken(number):
                    raise
                continue
            return req
        raise Conflict(_("No free request number was found. Please try again."))
    except BaseException:
        db.session.rollback()
        remove_files(names)
        raise


def _build_request(actor, number, issue_text, priority_value, due, assignee, phone, names, images):
    req = MaintenanceRequest(
        request_number=number,
        issue=issue_text,
        priority=priority_value,
        status=MaintenanceStatus.ONGOING.value,
        request_date=today(),
        due_date=due,
        assignee_id=assignee.id,
        contact_phone=phone,
        created_by_id=actor.id if actor else None,
    )
    # Fresh attachment rows per attempt: a rolled-back attempt leaves its objects unusable.
    for name, (upload, kind) in zip(names, images, strict=True):
        req.attachments.append(
            MaintenanceAttachment(
                stored_name=name,
                original_name=display_name(upload.filename) if upload.filename else name,
                content_type=kind,
                size=len(upload.data),
            )
        )
    _event(req, MaintenanceEventKind.CREATED, actor, note=issue_text[:MAX_REMARKS], due_date=due)
    _event(req, MaintenanceEventKind.ASSIGNED, actor, note=assignee.full_name)
    return req


def get_request(request_id: int) -> MaintenanceRequest:
    req = get_by_id(MaintenanceRequest, request_id)
    if req is None:
        raise NotFound(_("Maintenance request not found."))
    return req


def _transition(
    request_id: int,
    to_status: MaintenanceStatus,
    *,
    from_status: MaintenanceStatus = MaintenanceStatus.ONGOING,
    **values: object,
) -> MaintenanceRequest:
    """Moves an on-going request to a final status (or, undoing a cancel, back); 409 when it
    is no longer in `from_status`.

    A conditional UPDATE, so two people completing at once cannot both succeed.
    """
    req = get_request(request_id)
    result = typing.cast(
        CursorResult[typing.Any],
        db.session.execute(
            update(MaintenanceRequest)
            .where(
                MaintenanceRequest.id == request_id,
                MaintenanceRequest.status == from_status.value,
            )
            .values(status=to_status.value, updated_at=utcnow(), **values)
            .execution_options(synchronize_session=False)
        ),
    )
    if not result.rowcount:
        db.session.rollback()
        raise Conflict(_("This request is already %(state_word)s.", state_word=_state_word(req.status)))
    return req


def _require_ongoing(req: MaintenanceRequest, action: str) -> None:
    if req.status != MaintenanceStatus.ONGOING:
        raise Conflict(
            _(
                "Only on-going requests can be %(action)s; this one is %(state_word)s.",
                action=action,
                state_word=_state_word(req.status),
            )
        )


def complete_request(request_id: int, *, actor: Account | None, remarks: object = None) -> MaintenanceRequest:
    get_request(request_id)
    note = text_value(remarks, "remarks", _("Remarks"), max_length=MAX_REMARKS, required=False)
    values: dict[str, typing.Any] = {"date_completed": today()}
    if note:
        values["remarks"] = note
    req = _transition(request_id, MaintenanceStatus.COMPLETED, **values)
    _event(req, MaintenanceEventKind.COMPLETED, actor, note=note)
    db.session.commit()
    db.session.refresh(req)
    return req


def cancel_request(request_id: int, *, actor: Account | None, reason: object) -> MaintenanceRequest:
    _require_ongoing(get_request(request_id), _("canceled"))
    note = text_value(reason, "remarks", _("A reason for canceling"), max_length=MAX_REMARKS, required=True)
    req = _transition(request_id, MaintenanceStatus.CANCELED, cancel_reason=note, remarks=note)
    _event(req, MaintenanceEventKind.CANCELED, actor, note=note)
    db.session.commit()
    db.session.refresh(req)
    return req


def find_request(request_id: int) -> MaintenanceRequest | None:
    return get_by_id(MaintenanceRequest, request_id)


def is_ongoing(req: MaintenanceRequest) -> bool:
    return req.status == MaintenanceStatus.ONGOING


def reopen_request(request_id: int, *, actor: Account | None) -> MaintenanceRequest:
    """The undo of a cancel: a canceled request is on-going again (409 otherwise)."""
    req = _transition(
        request_id, MaintenanceStatus.ONGOING, from_status=MaintenanceStatus.CANCELED, cancel_reason=None
    )
    _event(req, MaintenanceEventKind.REOPENED, actor, note="Cancel undone")
    db.session.commit()
    db.session.refresh(req)
    return req


def renew_request(
    request_id: int, *, actor: Account | None, due_date: object, remarks: object
) -> MaintenanceRequest:
    """A new due date with a remark; the request stays on-going."""
    req = get_request(request_id)
    _require_ongoing(req, _("renewed"))
    due = parse_due_date(due_date, label=_("New due date"))
    note = text_value(remarks, "remarks", _("Remarks"), max_length=MAX_REMARKS, required=True)
    req.due_date, req.remarks = due, note
    _event(req, MaintenanceEventKind.RENEWED, actor, note=note, due_date=due)
    db.session.commit()
    return req


def add_remark(request_id: int, *, actor: Account | None, remarks: object) -> MaintenanceRequest:
    req = get_request(request_id)
    note = text_value(remarks, "remarks", _("Remarks"), max_length=MAX_REMARKS, required=True)
    req.remarks = note
    _event(req, MaintenanceEventKind.REMARK, actor, note=note)
    db.session.commit()
    return req


def assign_request(request_id: int, *, actor: Account | None, assigned_to: object) -> MaintenanceRequest:
    req = get_request(request_id)
    _require_ongoing(req, _("reassigned"))
    assignee = active_operator(assigned_to)
    if assignee.id == req.assignee_id:
        raise Invalid(
            _("This request is already assigned to %(full_name)s.", full_name=assignee.full_name),
            field="assignedTo",
        )
    req.assignee_id = assignee.id
    req.assignee = assignee
    _event(req, MaintenanceEventKind.ASSIGNED, actor, note=assignee.full_name)
    db.session.commit()
    return req


# Lists -------------------------------------------------------------------------------------


FILTER_STATUSES = [
    s.value for s in (MaintenanceStatus.ONGOING, MaintenanceStatus.COMPLETED, MaintenanceStatus.CANCELED)
]
FILTER_PRIORITIES = [
    p.value for p in (MaintenancePriority.CRITICAL, MaintenancePriority.URGENT, MaintenancePriority.MILD)
]


def tab_of(req: MaintenanceRequest) -> str:
    """The tab that shows a request by its status (besides the Request register)."""
    return "pending" if req.status == MaintenanceStatus.ONGOING else "complete"


def history(req: MaintenanceRequest) -> list[MaintenanceEvent]:
    return list(req.events)
