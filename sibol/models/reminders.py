"""Tables of the reminders: who agreed to be reminded, how, and each reminder sent or not."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Model
from .core import TenantOwned, utcnow
from .household import HouseholdMember

__all__ = ["ReminderMessage", "ReminderStatus", "ReminderSubscription"]


class ReminderStatus:
    QUEUED = "queued"
    SENDING = "sending"  # handed to the gateway; a worker that died here never sends it again
    SENT = "sent"
    FAILED = "failed"
    CAPPED = "capped"  # the barangay's daily SMS cap was reached
    CANCELLED = "cancelled"  # the collection was cancelled or done, or the person stopped


class ReminderSubscription(TenantOwned, Model):
    """A household's consent to reminders the evening before its area's collection."""

    __tablename__ = "reminder_subscriptions"
    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(
        ForeignKey("household_members.id", ondelete="CASCADE"), index=True, unique=True
    )
    mobile: Mapped[str | None] = mapped_column(String(16))  # +639XXXXXXXXX
    email: Mapped[str | None] = mapped_column(String(254))
    by_sms: Mapped[bool] = mapped_column(Boolean, default=False)
    by_email: Mapped[bool] = mapped_column(Boolean, default=False)
    language: Mapped[str] = mapped_column(String(8), default="fil")
    consent_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    consent_by_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    stop_token: Mapped[str] = mapped_column(String(32), unique=True)
    stopped_at: Mapped[datetime | None] = mapped_column(DateTime)

    member: Mapped[HouseholdMember] = relationship(lazy="joined")


class ReminderMessage(TenantOwned, Model):
    """One reminder of one collection to one person by one channel: the unique key makes a
    second run of the job (or a second worker) find it there instead of sending it again."""

    __tablename__ = "reminder_messages"
    id: Mapped[int] = mapped_column(primary_key=True)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("reminder_subscriptions.id", ondelete="CASCADE"), index=True
    )
    schedule_id: Mapped[int] = mapped_column(
        ForeignKey("collection_schedules.id", ondelete="CASCADE"), index=True
    )
    channel: Mapped[str] = mapped_column(String(8))  # sms | email
    status: Mapped[str] = mapped_column(String(12), default=ReminderStatus.QUEUED, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    cost_centavos: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str] = mapped_column(String(255), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime)

    subscription: Mapped[ReminderSubscription] = relationship(lazy="joined")

    __table_args__ = (
        UniqueConstraint("schedule_id", "subscription_id", "channel", name="uq_reminder_messages_once"),
    )
