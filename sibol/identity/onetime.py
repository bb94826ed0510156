"""Issuing and consuming one-time secrets (links and reset codes) for sign-up, reset and admin. Callers commit.

A secret is used by one conditional UPDATE (`consume`): on MariaDB it locks the row, on SQLite it
takes the database's write lock, and it matches only while the secret is unused, unexpired and
has tries left, so exactly one of simultaneous uses wins. A wrong reset code is counted the same
way (`count_wrong_code`), so simultaneous guesses cannot get more than MAX_CODE_ATTEMPTS.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any, cast

from flask import current_app
from sqlalchemy import CursorResult, select, update

from ..extensions import db
from ..models import Account, utcnow
from ..models.auth import AccountToken, TokenPurpose
from .tokens import hash_secret

LIFETIMES = {
    TokenPurpose.VERIFY_EMAIL: timedelta(hours=24),
    TokenPurpose.SET_PASSWORD: timedelta(hours=72),
    TokenPurpose.RESET_CODE: timedelta(minutes=15),
    TokenPurpose.SECOND_STEP: timedelta(minutes=5),
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


def _live(token: AccountToken, now) -> list[Any]:
    return [
        AccountToken.id == token.id,
        AccountToken.used_at.is_(None),
        AccountToken.expires_at > now,
        AccountToken.failed_attempts < MAX_CODE_ATTEMPTS,
    ]


def _matched(statement) -> int:
    result = cast(
        "CursorResult[Any]", db.session.execute(statement, execution_options={"synchronize_session": False})
    )
    return result.rowcount or 0


def consume(token: AccountToken) -> bool:
    """Mark the secret used, in one conditional UPDATE; True only for the one caller that did.
    The row stays locked until the caller's commit (a rollback gives the secret back)."""
    now = utcnow()
    if not _matched(update(AccountToken).where(*_live(token, now)).values(used_at=now)):
        return False
    token.used_at = now
    return True


def still_live(token: AccountToken) -> bool:
    """Whether the secret is still usable, decided by the same row lock as `consume` (a reset
    code checked while wrong guesses land at the same moment is judged after them)."""
    return bool(_matched(update(AccountToken).where(*_live(token, utcnow())).values(used_at=None)))


def count_wrong_code(token: AccountToken) -> None:
    """One wrong guess of a reset code, counted in one statement; past MAX_CODE_ATTEMPTS the
    code is dead (the caller commits)."""
    _matched(
        update(AccountToken)
        .where(*_live(token, utcnow()))
        .values(failed_attempts=AccountToken.failed_attempts + 1)
    )


def set_password_url(account: Account) -> str:
    """Issue a set-password link (72 h) for an account that has no password yet."""
    raw = issue_link_token(account, TokenPurpose.SET_PASSWORD)
    return f"{current_app.config['SIBOL_BASE_URL']}/set-password?token={raw}"
