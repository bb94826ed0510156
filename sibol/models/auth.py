"""One-time secrets of account entry: e-mail verification and set-password links, reset codes."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Model
from .core import Account, utcnow


class TokenPurpose(enum.StrEnum):
    VERIFY_EMAIL = "verify_email"  # link, 24 hours
    SET_PASSWORD = "set_password"  # link sent on approval, 72 hours  # noqa: S105
    RESET_CODE = "reset_code"  # six digits, 15 minutes, 5 tries
    # A sign-in whose password was right and whose second factor is still to come: 5 minutes
    # (the browser's signed session carries the secret; sibol/auth/second_step.py).
    SECOND_STEP = "second_step"


class AccountToken(Model):
    """A single-use secret; only its SHA-256 is stored."""

    __tablename__ = "account_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(20), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime)
    used_at: Mapped[datetime | None] = mapped_column(DateTime)
    failed_attempts: Mapped[int] = mapped_column(Integer, default=0)

    account: Mapped[Account] = relationship()


class LoginFailures(Model):
    """Password checks for one login name, and what they led to (sibol/identity/lockout.py).

    key is `account:<id>` for an account (its username and e-mail count together) or
    `name:<sha256 prefix>` for an unknown name, which is treated the same so the answer reveals
    nothing. That row counts checks from every address (the flood meter: `failures`,
    `last_failure_at`, `notified_at`; `in_flight`: checks counted there whose password is still
    being compared, which a right one gives back); a row `<key>@<address digest>` counts one address's
    checks and holds that address's lock (`locked_until`, `lock_count`) and whether the account
    signed in from there (`trusted_until`). Shared by every process through the database."""

    __tablename__ = "login_failures"
    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    window_start: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    locked_until: Mapped[datetime | None] = mapped_column(DateTime, index=True)
    lock_count: Mapped[int] = mapped_column(Integer, default=0)
    last_failure_at: Mapped[datetime | None] = mapped_column(DateTime)
    trusted_until: Mapped[datetime | None] = mapped_column(DateTime)
    notified_at: Mapped[datetime | None] = mapped_column(DateTime)
    in_flight: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    account: Mapped[Account | None] = relationship()


class PageSession(Model):
    """A signed-in browser: the cookie carries a random id, only its SHA-256 is stored.

    Sign-out deletes the row, so every copy of the cookie stops working."""

    __tablename__ = "page_sessions"
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    user_agent: Mapped[str] = mapped_column(String(200), default="")
    address: Mapped[str] = mapped_column(String(64), default="")


class UndoOffer(Model):
    """The few seconds in which an action can be undone (sibol/web/safe_actions.py).

    The browser holds a random secret (only its SHA-256 is stored) that names the action and the
    row; it works once, for the account that acted, until expires_at."""

    __tablename__ = "undo_offers"
    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(40))
    target_id: Mapped[int] = mapped_column(Integer)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    used_at: Mapped[datetime | None] = mapped_column(DateTime)


class AccountTotp(Model):
    """An account's authenticator (TOTP, RFC 6238; sibol/identity/totp.py).

    The secret is kept encrypted. Until `confirmed_at` the enrolment waits for its first code and
    the secret may be shown again; from then on it is never shown. `last_step` is the last time
    step (30 s) a code was accepted for: a code of that step or an earlier one is refused, so a
    code cannot be used twice."""

    __tablename__ = "account_totp"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    secret_encrypted: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime)
    last_step: Mapped[int | None] = mapped_column(Integer)


class RecoveryCode(Model):
    """One of the ten single-use codes given at enrolment; only a keyed hash is stored."""

    __tablename__ = "totp_recovery_codes"
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    used_at: Mapped[datetime | None] = mapped_column(DateTime)
