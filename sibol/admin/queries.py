"""Account administration, read side: reference lists, account and pending lists, the audit log."""

from __future__ import annotations

import json

from sqlalchemy import func, or_, select

from ..extensions import db
from ..listing import Page, last_page, like_contains
from ..models import ROLE_DEFAULT_MODULES, Account, AccountStatus, Barangay, Module, Role
from ..models.admin import AuditEntry

# Reference lists ------------------------------------------------------------------------


def roles() -> list[Role]:
    return list(db.session.scalars(select(Role).order_by(Role.id)))


def modules() -> list[Module]:
    return list(db.session.scalars(select(Module).order_by(Module.id)))


def barangays() -> list[Barangay]:
    return list(db.session.scalars(select(Barangay).order_by(Barangay.name)))


def role_defaults() -> dict[int, list[int]]:
    return {int(role): list(ids) for role, ids in ROLE_DEFAULT_MODULES.items()}


# Reading ----------------------------------------------------------------------------------


def list_accounts(
    q: str | None = None, role_id: int | None = None, page: int = 1, per_page: int | None = 10
) -> Page:
    """Accounts that are not awaiting approval, newest first. per_page None: all of them."""
    query = select(Account).where(Account.status != AccountStatus.PENDING)
    q = (q or "").strip()
    if q:
        pattern = like_contains(q)
        query = query.where(
            or_(
                *(
                    func.lower(column).like(pattern, escape="\\")
                    for column in (Account.username, Account.first_name, Account.last_name, Account.email)
                )
            )
        )
    if role_id is not None:
        query = query.where(Account.role_id == role_id)
    total = db.session.scalar(select(func.count()).select_from(query.subquery())) or 0
    query = query.order_by(Account.id.desc())
    if per_page is None:
        return Page(list(db.session.scalars(query)), total, 1, max(total, 1))
    page = last_page(page, total, per_page)
    items = list(db.session.scalars(query.offset((page - 1) * per_page).limit(per_page)))
    return Page(items, total, page, per_page)


def list_pending(page: int = 1, per_page: int | None = 10) -> Page:
    """Accounts awaiting approval (e-mail verified, or Google sign-ups), oldest first."""
    query = select(Account).where(Account.status == AccountStatus.PENDING)
    total = pending_count()
    query = query.order_by(Account.created_at, Account.id)
    if per_page is None:
        return Page(list(db.session.scalars(query)), total, 1, max(total, 1))
    page = last_page(page, total, per_page)
    items = list(db.session.scalars(query.offset((page - 1) * per_page).limit(per_page)))
    return Page(items, total, page, per_page)


def pending_count() -> int:
    return (
        db.session.scalar(select(func.count(Account.id)).where(Account.status == AccountStatus.PENDING)) or 0
    )


def recent_audit(account_id: int, limit: int = 10) -> list[AuditEntry]:
    """The latest entries about one account, newest first."""
    return list(
        db.session.scalars(
            select(AuditEntry)
            .where(AuditEntry.target_id == account_id)
            .order_by(AuditEntry.created_at.desc(), AuditEntry.id.desc())
            .limit(limit)
        )
    )


def list_audit(page: int = 1, per_page: int = 50) -> Page:
    """The whole audit log, newest first."""
    total = db.session.scalar(select(func.count(AuditEntry.id))) or 0
    items = list(
        db.session.scalars(
            select(AuditEntry)
            .order_by(AuditEntry.created_at.desc(), AuditEntry.id.desc())
            .offset((page - 1) * per_page)
            .limit(per_page)
        )
    )
    return Page(items, total, page, per_page)


def audit_details(entry: AuditEntry) -> dict:
    try:
        details = json.loads(entry.details or "{}")
    except ValueError:
        return {}
    return details if isinstance(details, dict) else {}
