"""Bearer tokens: random, stored only as a SHA-256, expiring, revocable."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any, cast

from flask import current_app, request
from sqlalchemy import CursorResult, bindparam, select, update
from sqlalchemy.orm import joinedload

from ..extensions import db
from ..models import Account, ApiToken, utcnow


def hash_secret(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def issue_token(account: Account) -> str:
    """Add a new token for the account to the session (the caller commits) and return it."""
    raw = secrets.token_urlsafe(32)
    ttl = timedelta(hours=current_app.config["SIBOL_TOKEN_TTL_HOURS"])
    db.session.add(ApiToken(account_id=account.id, token_hash=hash_secret(raw), expires_at=utcnow() + ttl))
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
    header = request.headers.get("Authorization", "")
    scheme, _sep, value = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    value = value.strip()
    return value or None


# One query for every bearer request (issue 17): the token's checks, the account, its role,
# barangay and modules together, instead of three (token, account, modules). Built once: making
# the statement cost about a quarter of the lookup when it was built per request.
_ACCOUNT_FOR_TOKEN = (
    select(Account)
    .join(ApiToken, ApiToken.account_id == Account.id)
    .where(
        ApiToken.token_hash == bindparam("token_hash"),
        ApiToken.revoked_at.is_(None),
        ApiToken.expires_at > bindparam("now"),
    )
    .options(joinedload(Account.modules))
)


def account_for_token(raw: str) -> Account | None:
    """The active account that owns a live token, or None."""
    if len(raw) > 200:
        return None
    params = {"token_hash": hash_secret(raw), "now": utcnow()}
    account = db.session.execute(_ACCOUNT_FOR_TOKEN, params).unique().scalar_one_or_none()
    if account is None or not account.is_active:
        return None
    return account
