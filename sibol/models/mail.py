"""The mail outbox: every e-mail is a row here before it is queued, until the SMTP server took it."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import DateTime, Index, Integer, String, Text
from sqlalchemy.dialects.mysql import MEDIUMTEXT
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .core import utcnow

__all__ = ["MailState", "OutboxMail"]

LONG_TEXT = Text().with_variant(MEDIUMTEXT(), "mysql", "mariadb")  # an HTML body may pass 64 KB


class MailState(enum.StrEnum):
    PENDING = "pending"  # to be sent (again, after a refusal or a consumer that died mid-send)
    SENT = "sent"  # the SMTP server accepted it (or, without a server, it was written to outbox/)
    FAILED = "failed"  # refused on every try: given up, logged


class OutboxMail(Model):
    """One rendered e-mail and where its delivery stands (sibol/jobs/outbox.py sends it).

    A consumer claims the row for `lease_until` before it talks to the SMTP server and marks it
    sent only after the server accepted it; a consumer that dies in between leaves the claim to
    run out, and the next sweep sends the message again under the same `message_id`, so the copy
    a crash may duplicate is recognisable as the same message."""

    __tablename__ = "mail_outbox"
    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(255), unique=True)  # the Message-ID header
    recipient: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(500))
    body: Mapped[str] = mapped_column(LONG_TEXT)
    html: Mapped[str] = mapped_column(LONG_TEXT)
    template: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(10), default=MailState.PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime)
    last_error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime)

    # The sweep's question: which pending messages are due (and whose claim ran out)?
    __table_args__ = (Index("ix_mail_outbox_state_next_attempt_at", "state", "next_attempt_at"),)
