"""The input rules of a maintenance request: text, due date, priority, ids (Asia/Manila dates),
and who it may be assigned to (active operators)."""

from __future__ import annotations

from datetime import date, datetime

from flask_babel import gettext as _
from sqlalchemy import select

from ..data.rows import MAX_ID
from ..errors import Invalid
from ..extensions import db
from ..i18n.localtime import today
from ..inputs.fields import is_blank, required_message
from ..inputs.numbers import whole_text
from ..models import Account, AccountStatus, MaintenancePriority, RoleId

MAX_ISSUE = 2000
MAX_REMARKS = 1000
MAX_PHONE = 40


def text_value(value: object, field_name: str, label: str, *, max_length: int, required: bool) -> str | None:
    if is_blank(value):
        if required:
            raise Invalid(required_message(label), field=field_name)
        return None
    if not isinstance(value, str):
        raise Invalid(_("%(label)s must be text.", label=label), field=field_name)
    value = value.strip()
    if len(value) > max_length:
        raise Invalid(
            _("%(label)s must be at most %(max_length)s characters.", label=label, max_length=max_length),
            field=field_name,
        )
    return value


def parse_due_date(value: object, field_name: str = "dueDate", label: str | None = None) -> date:
    """A YYYY-MM-DD date, today or later in Asia/Manila."""
    label = label or _("Due date")
    due: date | None
    if isinstance(value, date) and not isinstance(value, datetime):
        due = value
    else:
        if is_blank(value):
            raise Invalid(required_message(label), field=field_name)
        if not isinstance(value, str):
            raise Invalid(_("%(label)s must be a date (YYYY-MM-DD).", label=label), field=field_name)
        try:
            due = date.fromisoformat(value.strip()[:10]) if len(value.strip()) == 10 else None
        except ValueError:
            due = None
        if due is None:
            raise Invalid(_("%(label)s must be a date (YYYY-MM-DD).", label=label), field=field_name)
    if due < today():
        raise Invalid(_("%(label)s cannot be in the past.", label=label), field=field_name)
    if due.year > today().year + 10:
        raise Invalid(_("%(label)s is too far in the future.", label=label), field=field_name)
    return due


def parse_priority(value: object) -> str:
    if is_blank(value):
        raise Invalid(_("Priority is required."), field="priority")
    if isinstance(value, str):
        try:
            return MaintenancePriority(value.strip().lower()).value
        except ValueError:
            pass
    raise Invalid(_("Priority must be Urgent, Critical or Mild."), field="priority")


def parse_id(value: object, field_name: str, label: str) -> int:
    if is_blank(value):
        raise Invalid(required_message(label), field=field_name)
    if isinstance(value, str):
        value = whole_text(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ID:
        raise Invalid(_("%(label)s must be chosen from the list.", label=label), field=field_name)
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


def active_operator(value: object) -> Account:
    """The account a request is assigned to: an active, enabled operator (by id)."""
    if is_blank(value):
        raise Invalid(_("Assigned to is required."), field="assignedTo")
    account_id = parse_id(value, "assignedTo", _("Assigned to"))
    account = db.session.get(Account, account_id)
    if (
        account is None
        or account.role_id != RoleId.OPERATOR
        or account.status != AccountStatus.ACTIVE
        or not account.is_enabled
    ):
        raise Invalid(_("Assigned to must be an active operator."), field="assignedTo")
    return account
