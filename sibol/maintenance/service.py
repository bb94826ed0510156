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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from flask import current_app
from sqlalchemy import String, cast, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from ..errors import Conflict, Invalid, NotFound, TooLarge
from ..extensions import db
from ..models import (
    Account,
    AccountStatus,
    MaintenanceAttachment,
    MaintenanceEvent,
    MaintenanceEventKind,
    MaintenancePriority,
    MaintenanceRequest,
    MaintenanceStatus,
    RoleId,
    utcnow,
)
from ..uploads import IMAGE_EXTENSIONS, sniff_image

MANILA = ZoneInfo("Asia/Manila")
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_FILES = 5
MAX_ISSUE = 2000
MAX_REMARKS = 1000
MAX_PHONE = 40
MAX_QUERY = 100
NUMBER_MIN, NUMBER_MAX = 100000, 199999
NUMBER_ATTEMPTS = 25
UPLOAD_SUBDIR = "maintenance"

TABS = ("request", "pending", "complete")
DEFAULT_TAB = "complete"
PERIODS = {"weekly": ("Weekly", 7), "monthly": ("Monthly", 30), "yearly": ("Yearly", 365)}

IMAGE_TYPES = IMAGE_EXTENSIONS  # content type -> file extension


def manila_today() -> date:
    return datetime.now(MANILA).date()


def _state_word(status: str) -> str:
    """How an error message names a state: 'on-going', 'completed', 'canceled'."""
    return "on-going" if status == MaintenanceStatus.ONGOING else str(status)


# Images ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Upload:
    """A file as the view read it: its name and at most MAX_UPLOAD_BYTES + 1 bytes."""

    filename: str
    data: bytes


def _checked_images(files: Iterable[Upload]) -> list[tuple[Upload, str]]:
    uploads = [f for f in files if f.filename or f.data]
    if len(uploads) > MAX_FILES:
        raise Invalid(f"Attach at most {MAX_FILES} images.", field="file")
    checked = []
    total = 0
    for upload in uploads:
        total += len(upload.data)
        if len(upload.data) > MAX_UPLOAD_BYTES or total > MAX_UPLOAD_BYTES:
            raise TooLarge("The image must be 10 MB or smaller.", field="file")
        if not upload.data:
            raise Invalid(f"{_display_name(upload.filename)} is empty.", field="file")
        kind = sniff_image(upload.data)
        if kind is None:
            raise Invalid(
                f"{_display_name(upload.filename)} is not an image (PNG, JPEG, GIF or WebP).",
                field="file",
            )
        checked.append((upload, kind))
    return checked


def _display_name(filename: str) -> str:
    name = Path((filename or "").replace("\\", "/")).name.strip()
    return name[:255] or "The file"


def upload_dir() -> Path:
    return Path(current_app.config["SIBOL_UPLOAD_DIR"]) / UPLOAD_SUBDIR


def _store_images(images: list[tuple[Upload, str]]) -> list[str]:
    """Writes the images under random names; the caller removes them if the commit fails."""
    folder = upload_dir()
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for upload, kind in images:
        name = f"{secrets.token_hex(16)}.{IMAGE_TYPES[kind]}"
        with open(folder / name, "xb") as fh:
            fh.write(upload.data)
        names.append(name)
    return names


def _remove_files(names: Iterable[str]) -> None:
    for name in names:
        (upload_dir() / name).unlink(missing_ok=True)


def attachment_file(attachment_id: int) -> tuple[Path, MaintenanceAttachment]:
    attachment = db.session.get(MaintenanceAttachment, attachment_id) if 0 < attachment_id < 2**31 else None
    if attachment is None:
        raise NotFound("Attachment not found.")
    path = upload_dir() / attachment.stored_name
    if not path.is_file():
        raise NotFound("The attached file is missing.")
    return path, attachment


# Input rules -------------------------------------------------------------------------------


def _text(value: object, field_name: str, label: str, *, max_length: int, required: bool) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise Invalid(f"{label} is required.", field=field_name)
        return None
    if not isinstance(value, str):
        raise Invalid(f"{label} must be text.", field=field_name)
    value = value.strip()
    if len(value) > max_length:
        raise Invalid(f"{label} must be at most {max_length} characters.", field=field_name)
    return value


def parse_due_date(value: object, field_name: str = "dueDate", label: str = "Due date") -> date:
    """A YYYY-MM-DD date, today or later in Asia/Manila."""
    if isinstance(value, date) and not isinstance(value, datetime):
        due = value
    else:
        if value is None or (isinstance(value, str) and not value.strip()):
            raise Invalid(f"{label} is required.", field=field_name)
        if not isinstance(value, str):
            raise Invalid(f"{label} must be a date (YYYY-MM-DD).", field=field_name)
        try:
            due = date.fromisoformat(value.strip()[:10]) if len(value.strip()) == 10 else None
        except ValueError:
            due = None
        if due is None:
            raise Invalid(f"{label} must be a date (YYYY-MM-DD).", field=field_name)
    if due < manila_today():
        raise Invalid(f"{label} cannot be in the past.", field=field_name)
    if due.year > manila_today().year + 10:
        raise Invalid(f"{label} is too far in the future.", field=field_name)
    return due


def parse_priority(value: object) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise Invalid("Priority is required.", field="priority")
    if isinstance(value, str):
        try:
            return MaintenancePriority(value.strip().lower()).value
        except ValueError:
            pass
    raise Invalid("Priority must be Urgent, Critical or Mild.", field="priority")


def parse_id(value: object, field_name: str, label: str) -> int:
    if value is None or value == "" or (isinstance(value, str) and not value.strip()):
        raise Invalid(f"{label} is required.", field=field_name)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 2**31 - 1:
        raise Invalid(f"{label} must be chosen from the list.", field=field_name)
    return value


def operators() -> list[Account]:
    """Who a request may be assigned to: active, enabled Operator accounts."""
    return list(
        db.session.scalars(
            select(Account)
            .where(
                Account.role_id == int(RoleId.OPERATOR),
                Account.status == AccountStatus.ACTIVE,
                Account.is_enabled.is_(True),
            )
            .order_by(Account.first_name, Account.last_name, Account.id)
        )
    )


def _operator(value: object) -> Account:
    account_id = parse_id(value, "assignedTo", "Assigned to")
    account = db.session.get(Account, account_id)
    if (
        account is None
        or account.role_id != RoleId.OPERATOR
        or account.status != AccountStatus.ACTIVE
        or not account.is_enabled
    ):
        raise Invalid("Assigned to must be an active operator.", field="assignedTo")
    return account


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
    for _ in range(NUMBER_ATTEMPTS):
        number = _random_number()
        if not _number_taken(number):
            return number
    return _random_number()


def _proposed(value: object) -> int | None:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
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
    errors: dict[str, str] = {}
    too_large: TooLarge | None = None

    def check(rule, *args, **kwargs):
        nonlocal too_large
        try:
            return rule(*args, **kwargs)
        except TooLarge as err:
            too_large = err
            errors[err.field or "file"] = err.message
        except Invalid as err:
            errors[err.field or "form"] = err.message
        return None

    # Every field is checked, so a form can show all its errors at once.
    assignee = check(_operator, assigned_to)
    issue_text = check(_text, issue, "issue", "Issue", max_length=MAX_ISSUE, required=True)
    priority_value = check(parse_priority, priority)
    due = check(parse_due_date, due_date)
    phone = check(_text, contact, "contactDetails", "Contact detail", max_length=MAX_PHONE, required=False)
    images = check(_checked_images, files)
    if too_large is not None and len(errors) == 1:
        raise too_large
    if errors:
        field_name, message = next(iter(errors.items()))
        raise Invalid(message, field=field_name, errors=errors)

    names = _store_images(images)
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
        raise Conflict("No free request number was found. Please try again.")
    except BaseException:
        db.session.rollback()
        _remove_files(names)
        raise


def _build_request(actor, number, issue_text, priority_value, due, assignee, phone, names, images):
    today = manila_today()
    req = MaintenanceRequest(
        request_number=number,
        issue=issue_text,
        priority=priority_value,
        status=MaintenanceStatus.ONGOING.value,
        request_date=today,
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
                original_name=_display_name(upload.filename) if upload.filename else name,
                content_type=kind,
                size=len(upload.data),
            )
        )
    _event(req, MaintenanceEventKind.CREATED, actor, note=issue_text[:MAX_REMARKS], due_date=due)
    _event(req, MaintenanceEventKind.ASSIGNED, actor, note=assignee.full_name)
    return req


MAX_ID = 2**31 - 1


def get_request(request_id: int) -> MaintenanceRequest:
    # An id past the column's range would make the driver fail rather than find nothing.
    req = db.session.get(MaintenanceRequest, request_id) if 0 < request_id <= MAX_ID else None
    if req is None:
        raise NotFound("Maintenance request not found.")
    return req


def _transition(request_id: int, to_status: MaintenanceStatus, **values) -> MaintenanceRequest:
    """Moves an on-going request to a final status; 409 when it is no longer on-going.

    A conditional UPDATE, so two people completing at once cannot both succeed.
    """
    req = get_request(request_id)
    result = db.session.execute(
        update(MaintenanceRequest)
        .where(
            MaintenanceRequest.id == request_id,
            MaintenanceRequest.status == MaintenanceStatus.ONGOING.value,
        )
        .values(status=to_status.value, updated_at=utcnow(), **values)
        .execution_options(synchronize_session=False)
    )
    if not result.rowcount:
        db.session.rollback()
        raise Conflict(f"This request is already {_state_word(req.status)}.")
    return req


def _require_ongoing(req: MaintenanceRequest, action: str) -> None:
    if req.status != MaintenanceStatus.ONGOING:
        raise Conflict(f"Only on-going requests can be {action}; this one is {_state_word(req.status)}.")


def complete_request(request_id: int, *, actor: Account | None, remarks: object = None) -> MaintenanceRequest:
    get_request(request_id)
    note = _text(remarks, "remarks", "Remarks", max_length=MAX_REMARKS, required=False)
    values = {"date_completed": manila_today()}
    if note:
        values["remarks"] = note
    req = _transition(request_id, MaintenanceStatus.COMPLETED, **values)
    _event(req, MaintenanceEventKind.COMPLETED, actor, note=note)
    db.session.commit()
    db.session.refresh(req)
    return req


def cancel_request(request_id: int, *, actor: Account | None, reason: object) -> MaintenanceRequest:
    _require_ongoing(get_request(request_id), "canceled")
    note = _text(reason, "remarks", "A reason for canceling", max_length=MAX_REMARKS, required=True)
    req = _transition(request_id, MaintenanceStatus.CANCELED, cancel_reason=note, remarks=note)
    _event(req, MaintenanceEventKind.CANCELED, actor, note=note)
    db.session.commit()
    db.session.refresh(req)
    return req


def renew_request(
    request_id: int, *, actor: Account | None, due_date: object, remarks: object
) -> MaintenanceRequest:
    """A new due date with a remark; the request stays on-going."""
    req = get_request(request_id)
    _require_ongoing(req, "renewed")
    due = parse_due_date(due_date, label="New due date")
    note = _text(remarks, "remarks", "Remarks", max_length=MAX_REMARKS, required=True)
    req.due_date, req.remarks = due, note
    _event(req, MaintenanceEventKind.RENEWED, actor, note=note, due_date=due)
    db.session.commit()
    return req


def add_remark(request_id: int, *, actor: Account | None, remarks: object) -> MaintenanceRequest:
    req = get_request(request_id)
    note = _text(remarks, "remarks", "Remarks", max_length=MAX_REMARKS, required=True)
    req.remarks = note
    _event(req, MaintenanceEventKind.REMARK, actor, note=note)
    db.session.commit()
    return req


def assign_request(request_id: int, *, actor: Account | None, assigned_to: object) -> MaintenanceRequest:
    req = get_request(request_id)
    _require_ongoing(req, "reassigned")
    assignee = _operator(assigned_to)
    if assignee.id == req.assignee_id:
        raise Invalid(f"This request is already assigned to {assignee.full_name}.", field="assignedTo")
    req.assignee_id = assignee.id
    req.assignee = assignee
    _event(req, MaintenanceEventKind.ASSIGNED, actor, note=assignee.full_name)
    db.session.commit()
    return req


# Lists -------------------------------------------------------------------------------------


@dataclass
class ListQuery:
    tab: str = DEFAULT_TAB
    q: str = ""
    statuses: list[str] = field(default_factory=list)
    priorities: list[str] = field(default_factory=list)
    periods: list[str] = field(default_factory=list)

    @property
    def has_filters(self) -> bool:
        return bool(self.statuses or self.priorities or self.periods)


FILTER_STATUSES = [
    s.value for s in (MaintenanceStatus.ONGOING, MaintenanceStatus.COMPLETED, MaintenanceStatus.CANCELED)
]
FILTER_PRIORITIES = [
    p.value for p in (MaintenancePriority.CRITICAL, MaintenancePriority.URGENT, MaintenancePriority.MILD)
]


def _choices(values: Iterable[str], allowed: list[str], name: str, label: str, strict: bool) -> list[str]:
    chosen: list[str] = []
    for raw in values:
        for part in str(raw).split(","):
            value = part.strip().lower().replace("-", "")
            if not value:
                continue
            if value not in allowed:
                if strict:
                    raise Invalid(f"{label} must be one of: {', '.join(allowed)}.", field=name)
                continue
            if value not in chosen:
                chosen.append(value)
    return [v for v in allowed if v in chosen]  # the dialog's order, each once


def parse_list_query(args: Mapping, *, strict: bool = False) -> ListQuery:
    """Tab, search and filters from a query string (a MultiDict). Strict: unknown values are 400."""
    getlist = args.getlist if hasattr(args, "getlist") else (lambda k: [args[k]] if k in args else [])
    tab = (args.get("tab") or DEFAULT_TAB).strip().lower()
    if tab not in TABS:
        if strict:
            raise Invalid("tab must be request, pending or complete.", field="tab")
        tab = DEFAULT_TAB
    q = (args.get("q") or "").strip()
    if len(q) > MAX_QUERY:
        if strict:
            raise Invalid(f"q must be at most {MAX_QUERY} characters.", field="q")
        q = q[:MAX_QUERY]
    return ListQuery(
        tab=tab,
        q=q,
        statuses=_choices(getlist("status"), FILTER_STATUSES, "status", "status", strict),
        priorities=_choices(getlist("priority"), FILTER_PRIORITIES, "priority", "priority", strict),
        periods=_choices(getlist("date"), list(PERIODS), "date", "date", strict),
    )


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def list_requests(
    query: ListQuery, *, page: int = 1, per_page: int = 10
) -> tuple[list[MaintenanceRequest], int]:
    """One page of a tab's requests with the search and filters applied, and the total."""
    MR = MaintenanceRequest
    stmt = select(MR)
    if query.tab == "pending":
        stmt = stmt.where(MR.status == MaintenanceStatus.ONGOING.value)
        order = (MR.due_date.asc(), MR.id.asc())
    elif query.tab == "complete":
        stmt = stmt.where(
            MR.status.in_([MaintenanceStatus.COMPLETED.value, MaintenanceStatus.CANCELED.value])
        )
        order = (MR.updated_at.desc(), MR.id.desc())
    else:
        order = (MR.request_date.desc(), MR.id.desc())
    if query.statuses:
        stmt = stmt.where(MR.status.in_(query.statuses))
    if query.priorities:
        stmt = stmt.where(MR.priority.in_(query.priorities))
    if query.periods:
        days = max(PERIODS[p][1] for p in query.periods)  # the choices overlap: the widest wins
        stmt = stmt.where(MR.request_date >= manila_today() - timedelta(days=days - 1))
    if query.q:
        assignee = aliased(Account)
        pattern = _like(query.q.lower())
        stmt = stmt.outerjoin(assignee, MR.assignee_id == assignee.id).where(
            or_(
                cast(MR.request_number, String).like(pattern, escape="\\"),
                func.lower(MR.issue).like(pattern, escape="\\"),
                func.lower(func.coalesce(MR.contact_phone, "")).like(pattern, escape="\\"),
                func.lower(assignee.first_name + " " + assignee.last_name).like(pattern, escape="\\"),
                func.lower(func.coalesce(assignee.email, "")).like(pattern, escape="\\"),
                func.lower(assignee.username).like(pattern, escape="\\"),
            )
        )
    total = db.session.scalar(select(func.count()).select_from(stmt.subquery())) or 0
    offset = (page - 1) * per_page
    if offset >= total:  # past the end (the driver would choke on an absurd offset)
        return [], total
    rows = db.session.scalars(stmt.order_by(*order).offset(offset).limit(per_page)).unique()
    return list(rows), total


def tab_of(req: MaintenanceRequest) -> str:
    """The tab that shows a request by its status (besides the Request register)."""
    return "pending" if req.status == MaintenanceStatus.ONGOING else "complete"


def history(req: MaintenanceRequest) -> list[MaintenanceEvent]:
    return list(req.events)
