"""Tables of a household's collection history, sign-ins, pending e-mail changes.

(Claim codes and states are columns of reward_claims, in models/household.py.)
"""

from __future__ import annotations

import enum
from datetime import date, datetime

from sqlalchemy import Date, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .core import TenantOwned, utcnow

__all__ = ["ClaimState", "EmailChange", "MemberCollection", "SignIn", "SignInMethod"]


class ClaimState(enum.StrEnum):
    OPEN = "open"  # points reserved, waiting for pick-up
    REDEEMED = "redeemed"  # handed over: points spent for good
    CANCELLED = "cancelled"  # points released


class SignInMethod(enum.StrEnum):
    PASSWORD = "password"  # noqa: S105 - a method name, not a secret
    GOOGLE = "google"


class MemberCollection(TenantOwned, Model):
    """Food waste one household handed in, and the points it earned then."""

    __tablename__ = "member_collections"
    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("household_members.id", ondelete="CASCADE"), index=True)
    collected_on: Mapped[date] = mapped_column(Date, index=True)
    waste_g: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    recorded_by_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class SignIn(Model):
    """One successful sign-in (page, API or Google): the profile lists the last 10."""

    __tablename__ = "sign_ins"
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    address: Mapped[str] = mapped_column(String(64), default="")
    method: Mapped[str] = mapped_column(String(20), default=SignInMethod.PASSWORD)
    user_agent: Mapped[str] = mapped_column(String(255), default="")


class EmailChange(Model):
    """A new address waiting for its verification link; only the link's SHA-256 is stored."""

    __tablename__ = "email_changes"
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    new_email: Mapped[str] = mapped_column(String(254))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime)
    used_at: Mapped[datetime | None] = mapped_column(DateTime)
