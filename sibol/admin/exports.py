"""CSV exports of the account administration tables (List of Accounts, User Approval): the
queries their tables page through, unpaged, with the tables' columns (sibol/data/export.py)."""

from __future__ import annotations

from flask import Response
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, select
from sqlalchemy.orm import joinedload

from ..data.export import stream_rows, stream_scalars
from ..models import Account, Module
from ..models.core import account_modules
from ..web.downloads import csv_response
from . import queries
from .serializers import status_label

ACCOUNT_HEADERS = (
    _l("Username"),
    _l("Name"),
    _l("Email"),
    _l("Barangay"),
    _l("Role"),
    _l("Access"),
    _l("Status"),
)
PENDING_HEADERS = (_l("Username"), _l("Name"), _l("Email"), _l("Barangay"), _l("Role"), _l("Signed up"))


def _joined(statement):
    return statement.options(joinedload(Account.role), joinedload(Account.barangay))


def _who(account: Account) -> tuple:
    """The cells both account tables start with: username, name, e-mail, barangay, role."""
    name = f"{account.first_name} {account.last_name}".strip()
    barangay = account.barangay.name if account.barangay else ""
    return (account.username, name, account.email, barangay, account.role.name)


def accounts_csv(q: str | None, role_id: int | None) -> Response:
    # The Access chips as one cell, computed in the same statement (no second query mid-stream).
    access = (
        select(func.aggregate_strings(Module.name, "; "))
        .select_from(account_modules.join(Module, Module.id == account_modules.c.module_id))
        .where(account_modules.c.account_id == Account.id)
        .scalar_subquery()
    )
    statement = _joined(queries.accounts_query(q, role_id).add_columns(access).order_by(Account.id.desc()))

    def shape(row):
        account, modules = row
        return (*_who(account), modules or "None", status_label(account))

    return csv_response("accounts", ACCOUNT_HEADERS, stream_rows(statement), shape)


def pending_csv() -> Response:
    def shape(account: Account):
        return (*_who(account), account.created_at)

    return csv_response(
        "pending-accounts", PENDING_HEADERS, stream_scalars(_joined(queries.pending_query())), shape
    )
