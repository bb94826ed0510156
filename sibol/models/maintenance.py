"""Tables of the maintenance feature: requests, their attached images and their history."""

from __future__ import annotations

import enum
from datetime import date, datetime

from sqlalchemy import Date, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Model
from .core import Account, TenantOwned, utcnow

__all__ = [
    "MaintenanceAttachment",
    "MaintenanceEvent",
    "MaintenancePriority",
    "MaintenanceRequest",
    "MaintenanceStatus",
    "MaintenanceEventKind",
]


class MaintenanceStatus(enum.StrEnum):
    """requested -> ongoing (assigned) -> completed, or canceled with a reason."""

    REQUESTED = "requested"
    ONGOING = "ongoing"
    COMPLETED = "completed"
    CANCELED = "canceled"


class MaintenancePriority(enum.StrEnum):
    URGENT = "urgent"
    CRITICAL = "critical"
    MILD = "mild"


class MaintenanceEventKind(enum.StrEnum):
    CREATED = "created"
    ASSIGNED = "assigned"
    RENEWED = "renewed"
    REMARK = "remark"
    COMPLETED = "completed"
    CANCELED = "canceled"
    REOPENED = "reopened"  # the undo of a cancel


class MaintenanceRequest(TenantOwned, Model):
    __tablename__ = "maintenance_requests"
    id: Mapped[int] = mapped_column(primary_key=True)
    request_number: Mapped[int] = mapped_column(Integer)  # unique per barangay
    issue: Mapped[str] = mapped_column(String(2000))
    priority: Mapped[str] = mapped_column(String(10), index=True)
    status: Mapped[str] = mapped_column(String(12), default=MaintenanceStatus.REQUESTED, index=True)
    # Calendar dates are Asia/Manila local dates; times are naive UTC.
    request_date: Mapped[date] = mapped_column(Date, index=True)
    due_date: Mapped[date | None] = mapped_column(Date)
    date_completed: Mapped[date | None] = mapped_column(Date)
    assignee_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), index=True
    )
    contact_phone: Mapped[str | None] = mapped_column(String(40))
    remarks: Mapped[str | None] = mapped_column(String(1000))  # the latest remark
    cancel_reason: Mapped[str | None] = mapped_column(String(1000))
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)

    assignee: Mapped[Account | None] = relationship(foreign_keys=[assignee_id], lazy="joined")
    created_by: Mapped[Account | None] = relationship(foreign_keys=[created_by_id])
    attachments: Mapped[list[MaintenanceAttachment]] = relationship(
        back_populates="request",
        cascade="all, delete-orphan",
        order_by="MaintenanceAttachment.id",
        lazy="selectin",
    )
    events: Mapped[list[MaintenanceEvent]] = relationship(
        back_populates="request", cascade="all, delete-orphan", order_by="MaintenanceEvent.id"
    )

    __table_args__ = (
        UniqueConstraint(
            "barangay_id", "request_number", name="uq_maintenance_requests_barangay_id_request_number"
        ),
    )


class MaintenanceAttachment(TenantOwned, Model):
    """An uploaded image, stored under SIBOL_UPLOAD_DIR with a random name."""

    __tablename__ = "maintenance_attachments"
    id: Mapped[int] = mapped_column(primary_key=True)
    request_id: Mapped[int] = mapped_column(
        ForeignKey("maintenance_requests.id", ondelete="CASCADE"), index=True
    )
    stored_name: Mapped[str] = mapped_column(String(80), unique=True)
    original_name: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str] = mapped_column(String(40))
    size: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)

    request: Mapped[MaintenanceRequest] = relationship(back_populates="attachments")


class MaintenanceEvent(TenantOwned, Model):
    """One line of a request's history: what changed, who did it and when."""

    __tablename__ = "maintenance_events"
    id: Mapped[int] = mapped_column(primary_key=True)
    request_id: Mapped[int] = mapped_column(
        ForeignKey("maintenance_requests.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(20))
    note: Mapped[str | None] = mapped_column(String(1000))
    due_date: Mapped[date | None] = mapped_column(Date)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    # A copy of the actor's name: the history keeps saying who, even if the account goes.
    actor_name: Mapped[str] = mapped_column(String(210), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)

    request: Mapped[MaintenanceRequest] = relationship(back_populates="events")
