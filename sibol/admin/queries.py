"""Account administration, read side: reference lists, account and pending lists, the audit log."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import cast

from sqlalchemy import Select, Table, func, or_, outerjoin, select
from sqlalchemy.orm import joinedload

from ..data.listing import Page, last_page, like_contains
from ..extensions import db
from ..identity.tenancy import acting_as_city_admin
from ..models import (
    MODULES,
    ROLE_DEFAULT_MODULES,
    Account,
    AccountStatus,
    Barangay,
    Module,
    ModuleId,
    Role,
    RoleId,
)
from ..models.admin import AuditEntry
from ..models.core import module_ids_column, parse_module_ids

# Reference lists ------------------------------------------------------------------------


def roles() -> list[Role]:
    """The roles the signed-in account may give: City Admin only to a City Admin."""
    query = select(Role).order_by(Role.id)
    if not acting_as_city_admin():
        query = query.where(Role.id != int(RoleId.CITY_ADMIN))
    return list(db.session.scalars(query))


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
    query = accounts_query(q, role_id)
    # The count over the same conditions, without the joined role and barangay.
    total = db.session.scalar(query.with_only_columns(func.count(Account.id)).order_by(None)) or 0
    # Modules joined into the page query: one query instead of a second SELECT ... IN per page.
    query = query.order_by(Account.id.desc()).options(joinedload(Account.modules))
    if per_page is None:
        return Page(list(db.session.scalars(query).unique()), total, 1, max(total, 1))
    page = last_page(page, total, per_page)
    items = list(db.session.scalars(query.offset((page - 1) * per_page).limit(per_page)).unique())
    return Page(items, total, page, per_page)


def list_account_rows(
    q: str | None = None, role_id: int | None = None, page: int = 1, per_page: int | None = 10
) -> Page:
    """list_accounts as plain rows for /api: each item is (row, [(module id, name)...])
    with the fields account_json reads, in one SELECT (two with a page's COUNT) and no ORM
    objects. The accounts are scoped like every Account query (the entity's loader criteria);
    their role, barangay and module ids are read through the tables (an ORM entity there would
    add its criteria again)."""
    q = (q or "").strip()
    # Without a search the statements do not depend on the request: built once per role filter.
    count_query, query = _account_row_statements(role_id) if not q else _account_row_query(q, role_id)
    if per_page is None:  # the whole list: its length is the total, no COUNT needed
        rows = list(db.session.execute(query))
        total = len(rows)
        page, per_page_shown = 1, max(total, 1)
    else:
        total = db.session.scalar(count_query) or 0
        page = last_page(page, total, per_page)
        per_page_shown = per_page
        rows = list(db.session.execute(query.offset((page - 1) * per_page).limit(per_page)))
    # The modules come with each row (their ids), named from the fixed reference list.
    items = [
        (row, [(m, MODULES[ModuleId(m)][1]) for m in sorted(parse_module_ids(row.module_ids))])
        for row in rows
    ]
    return Page(items, total, page, per_page_shown)


@lru_cache(maxsize=16)
def _account_row_statements(role_id: int | None) -> tuple[Select, Select]:
    return _account_row_query("", role_id)


def _account_row_query(q: str, role_id: int | None) -> tuple[Select, Select]:
    """The count and the rows of list_account_rows (unpaged)."""
    query = accounts_query(q, role_id)
    count_query = query.with_only_columns(func.count(Account.id)).order_by(None)
    role, barangay = (cast(Table, c.__table__) for c in (Role, Barangay))
    query = (
        query.with_only_columns(
            Account.id,
            Account.username,
            Account.first_name,
            Account.last_name,
            Account.email,
            Account.barangay_id,
            barangay.c.name.label("barangay_name"),
            Account.role_id,
            role.c.name.label("role_name"),
            Account.is_enabled,
            Account.status,
            Account.created_at,
            module_ids_column(cast(Table, Account.__table__).c.id),
            maintain_column_froms=False,
        )
        .select_from(
            outerjoin(Account, role, Account.role_id == role.c.id).outerjoin(
                barangay, Account.barangay_id == barangay.c.id
            )
        )
        .order_by(Account.id.desc())
    )
    return count_query, query


def accounts_query(q: str | None = None, role_id: int | None = None) -> Select:
    """The List of Accounts' rows for a search and role filter, unordered and unpaged."""
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
    return query


def list_pending(page: int = 1, per_page: int | None = 10) -> Page:
    """Accounts awaiting approval (e-mail verified, or Google sign-ups), oldest first."""
    query = pending_query()
    total = pending_count()
    if per_page is None:
        return Page(list(db.session.scalars(query)), total, 1, max(total, 1))
    page = last_page(page, total, per_page)
    items = list(db.session.scalars(query.offset((page - 1) * per_page).limit(per_page)))
    return Page(items, total, page, per_page)


def pending_query() -> Select:
    """The User Approval table's rows, oldest first, unpaged."""
    query = select(Account).where(Account.status == AccountStatus.PENDING)
    return query.order_by(Account.created_at, Account.id)


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
