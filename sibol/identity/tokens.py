"""Bearer tokens: random, stored only as a SHA-256, expiring, revocable."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any, cast

from flask import current_app, request
from sqlalchemy import CursorResult, bindparam, select, update
from sqlalchemy.orm import make_transient_to_detached

from ..extensions import db
from ..models import Account, ApiToken, Barangay, utcnow
from ..models.core import BARANGAY_ACTIVE_KEY, MODULE_IDS_KEY, module_ids_column, parse_module_ids
from .authorization import credentials


def hash_secret(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def issue_token(account: Account, *, page_session_id: int | None = None) -> str:
    """Add a new token for the account to the session (the caller commits) and return it.
    page_session_id: the page session the same sign-in opened, which signing out with the token ends."""
    raw = secrets.token_urlsafe(32)
    ttl = timedelta(hours=current_app.config["SIBOL_TOKEN_TTL_HOURS"])
    db.session.add(
        ApiToken(
            account_id=account.id,
            token_hash=hash_secret(raw),
            expires_at=utcnow() + ttl,
            page_session_id=page_session_id,
        )
    )
    return raw


def revoke_token(raw: str) -> bool:
    """Revoke one token (the caller commits). True when it was live."""
    result = cast(
        CursorResult[Any],
        db.session.execute(
            update(ApiToken)
            .where(ApiToken.token_hash == hash_secret(raw), ApiToken.revoked_at.is_(None))
            .values(revoked_at=utcnow())
        ),
    )
    return bool(result.rowcount)


def revoke_all_tokens(account_id: int) -> int:
    """Revoke every live token of an account (the caller commits)."""
    result = cast(
        CursorResult[Any],
        db.session.execute(
            update(ApiToken)
            .where(ApiToken.account_id == account_id, ApiToken.revoked_at.is_(None))
            .values(revoked_at=utcnow())
        ),
    )
    return result.rowcount or 0


def bearer_from_request() -> str | None:
    return credentials(request.headers.get("Authorization"), "Bearer")


# One statement for every bearer request: the token's checks, the account's columns,
# its barangay's flag and its module ids as plain values, built once. Hydrating an Account with
# its joined role, barangay and modules through the ORM cost about as much again as the query.
_ACCOUNT_COLUMNS = tuple(Account.__table__.c)
_MODULE_IDS = module_ids_column(Account.__table__.c.id)
_ACCOUNT_FOR_TOKEN = (
    select(*_ACCOUNT_COLUMNS, Barangay.__table__.c.is_active.label("barangay_active"), _MODULE_IDS)
    .select_from(
        Account.__table__.join(
            ApiToken.__table__, ApiToken.__table__.c.account_id == Account.__table__.c.id
        ).outerjoin(Barangay.__table__, Barangay.__table__.c.id == Account.__table__.c.barangay_id)
    )
    .where(
        ApiToken.__table__.c.token_hash == bindparam("token_hash"),
        ApiToken.__table__.c.revoked_at.is_(None),
        ApiToken.__table__.c.expires_at > bindparam("now"),
    )
)


def account_for_token(raw: str) -> Account | None:
    """The active account that owns a live token, or None.

    The Account is made from the row, not loaded: it joins the session as a persistent, unchanged
    object whose relationships load when something reads them (role, barangay, modules), while
    `is_active` and `module_ids`, which every access check reads, use the row's values."""
    if len(raw) > 200:
        return None
    row = db.session.execute(_ACCOUNT_FOR_TOKEN, {"token_hash": hash_secret(raw), "now": utcnow()}).first()
    if row is None:
        return None
    values = row._mapping
    key = db.session.identity_key(Account, (values["id"],))
    account = db.session.identity_map.get(key)
    if account is None:
        account = Account(**{column.key: values[column] for column in _ACCOUNT_COLUMNS})
        make_transient_to_detached(account)
        db.session.add(account)
        account.__dict__[BARANGAY_ACTIVE_KEY] = values["barangay_active"] is not False
        account.__dict__[MODULE_IDS_KEY] = parse_module_ids(values["module_ids"])
    if not account.is_active:
        return None
    return account
