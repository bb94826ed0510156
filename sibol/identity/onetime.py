"""Issuing and consuming one-time secrets (links and reset codes) for sign-up, reset and admin. Callers commit."""

from __future__ import annotations

import secrets
from datetime import timedelta

from flask import current_app
from sqlalchemy import select, update

from ..extensions import db
from ..models import Account, utcnow
from ..models.auth import AccountToken, TokenPurpose
from .tokens import hash_secret

LIFETIMES = {
    TokenPurpose.VERIFY_EMAIL: timedelta(hours=24),
    TokenPurpose.SET_PASSWORD: timedelta(hours=72),
    TokenPurpose.RESET_CODE: timedelta(minutes=15),
}
MAX_CODE_ATTEMPTS = 5


def _retire(account_id: int, purpose: TokenPurpose) -> None:
    """A new secret replaces every earlier unused one of the same purpose."""
    db.session.execute(
        update(AccountToken)
        .where(
            AccountToken.account_id == account_id,
            AccountToken.purpose == purpose,
            AccountToken.used_at.is_(None),
        )
        .values(used_at=utcnow())
    )


def issue_link_token(account: Account, purpose: TokenPurpose) -> str:
    """A URL-safe single-use token for a link; returns the raw value (only its hash is kept)."""
    _retire(account.id, purpose)
    raw = secrets.token_urlsafe(32)
    db.session.add(
        AccountToken(
            account_id=account.id,
            purpose=purpose,
            token_hash=hash_secret(raw),
            expires_at=utcnow() + LIFETIMES[purpose],
        )
    )
    return raw


def issue_reset_code(account: Account) -> str:
    """Six digits from the CSPRNG; stored hashed with the account id as context."""
    _retire(account.id, TokenPurpose.RESET_CODE)
    code = f"{secrets.randbelow(1_000_000):06d}"
    db.session.add(
        AccountToken(
            account_id=account.id,
            purpose=TokenPurpose.RESET_CODE,
            token_hash=hash_secret(f"{account.id}:{code}"),
            expires_at=utcnow() + LIFETIMES[TokenPurpose.RESET_CODE],
        )
    )
    return code


def find_link_token(raw: str, purpose: TokenPurpose) -> AccountToken | None:
    """The live token for a raw link value, or None (unknown, used or expired)."""
    if not raw or len(raw) > 200:
        return None
    token = db.session.scalar(
        select(AccountToken).where(
            AccountToken.token_hash == hash_secret(raw), AccountToken.purpose == purpose
        )
    )
    if token is None or token.used_at is not None or token.expires_at <= utcnow():
        return None
    return token


def set_password_url(account: Account) -> str:
    """Issue a set-password link (72 h) for an account that has no password yet."""
    raw = issue_link_token(account, TokenPurpose.SET_PASSWORD)
    return f"{current_app.config['SIBOL_BASE_URL']}/set-password?token={raw}"
