"""Tables of the public pages: a barangay's former page addresses, which redirect."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .core import utcnow

__all__ = ["FormerSlug"]


class FormerSlug(Model):
    """A slug the barangay's public page had before: /b/<slug> redirects to the current one."""

    __tablename__ = "barangay_former_slugs"
    slug: Mapped[str] = mapped_column(String(80), primary_key=True)
    barangay_id: Mapped[int] = mapped_column(ForeignKey("barangays.id", ondelete="CASCADE"), index=True)
    replaced_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
