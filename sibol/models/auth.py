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
