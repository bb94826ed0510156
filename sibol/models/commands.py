"""Tables of the commands feature: what a person asked a machine to do, and every change of it.

A command lives queued -> delivered -> executed | failed | expired, or queued -> cancelled. While
it is queued or delivered, `pending_kind` holds its kind; the unique key on (machine, pending_kind)
then lets only one command of a kind wait per machine, even when two people send at once (NULLs
never collide, so finished commands do not count). Every time is naive UTC.
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Model
from .core import TenantOwned, utcnow

__all__ = ["Command", "CommandEvent", "CommandStatus"]


class CommandStatus(enum.StrEnum):
    QUEUED = "queued"
    DELIVERED = "delivered"
    EXECUTED = "executed"
    FAILED = "failed"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


PENDING_STATUSES = (CommandStatus.QUEUED, CommandStatus.DELIVERED)


class Command(TenantOwned, Model):
    __tablename__ = "machine_commands"
    id: Mapped[int] = mapped_column(primary_key=True)
    machine_id: Mapped[int] = mapped_column(ForeignKey("machines.id", ondelete="CASCADE"))
    command: Mapped[str] = mapped_column(String(20))
    value: Mapped[str | None] = mapped_column(String(10))  # as text: "10", "on", or none
    status: Mapped[str] = mapped_column(String(10), default=CommandStatus.QUEUED)
    pending_kind: Mapped[str | None] = mapped_column(String(20))  # the kind while queued or delivered
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    # The deadline of the next step: delivery while queued, the device's answer once delivered.
    expires_at: Mapped[datetime] = mapped_column(DateTime)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    created_by_name: Mapped[str] = mapped_column(String(210), default="")
    detail: Mapped[str] = mapped_column(String(500), default="")  # the device's reason, or why it expired

    events: Mapped[list[CommandEvent]] = relationship(
        back_populates="command", order_by="CommandEvent.id.desc()", cascade="all, delete-orphan"
    )

    __table_args__ = (
        UniqueConstraint("machine_id", "pending_kind", name="uq_machine_commands_machine_id_pending_kind"),
        Index("ix_machine_commands_machine_id_id", "machine_id", "id"),
        Index("ix_machine_commands_status_expires_at", "status", "expires_at"),
    )


class CommandEvent(TenantOwned, Model):
    """One change of a command's status: when, to what, by whom (a person, the device, the clock)."""

    __tablename__ = "machine_command_events"
    id: Mapped[int] = mapped_column(primary_key=True)
    command_id: Mapped[int] = mapped_column(ForeignKey("machine_commands.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(10))
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    actor_name: Mapped[str] = mapped_column(String(210), default="")  # a person's name, "device" or "system"
    detail: Mapped[str] = mapped_column(String(500), default="")

    command: Mapped[Command] = relationship(back_populates="events")
