"""Tables of the admin feature: the audit log of account administration."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .core import TenantOwned, utcnow

__all__ = ["AuditAction", "AuditEntry"]


class AuditAction(enum.StrEnum):
    CREATE = "create"
    EDIT = "edit"
    DISABLE = "disable"
    ENABLE = "enable"
    APPROVE = "approve"
    REJECT = "reject"
    UNLOCK = "unlock"
    # The account's own second factor (sibol/identity/totp.py): actor and target are the account.
    TOTP_ENROL = "totp_enrol"
    TOTP_DISABLE = "totp_disable"
    RECOVERY_CODE_USED = "recovery_code_used"


class AuditEntry(TenantOwned, Model):
    """Who did what to whom, and when. Names are copied so an entry outlives its accounts."""

    __tablename__ = "audit_entries"
    # The target's barangay; NULL for an entry about a City Admin (seen only with every barangay).
    __tenant_optional__ = True
    barangay_id: Mapped[int | None] = mapped_column(ForeignKey("barangays.id"), index=True)  # type: ignore[assignment]
    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    action: Mapped[str] = mapped_column(String(20), index=True)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), index=True)
    actor_username: Mapped[str] = mapped_column(String(64))
    target_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), index=True)
    target_username: Mapped[str] = mapped_column(String(64))
    # JSON text: before/after of role and access on edit, the reason on reject.
    details: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (Index("ix_audit_entries_barangay_created", "barangay_id", "created_at"),)
