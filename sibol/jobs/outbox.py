"""The mail outbox: at-least-once delivery of every e-mail, whatever happens to the consumer.

Huey takes a task off its queue before running it (its SQLite and Redis stores both delete the
task as they hand it out, and it has no acknowledgement after success), so a consumer killed
while talking to the SMTP server lost that message. The console's own database holds the
promise instead, one `mail_outbox` row per message:

1. `add` writes the rendered message as a pending row with its Message-ID (committed on its
   own, after the change it reports), and the caller queues `send_mail(row id)`.
2. `send` claims the row with one conditional UPDATE (pending, due, and no live claim), which
   holds it for SIBOL_MAIL_LEASE_SECONDS; it hands the message to the SMTP server and marks the
   row sent only after the server accepted it. A refusal puts the next try off by
   SIBOL_MAIL_RETRY_DELAY seconds, and after SIBOL_MAIL_RETRIES more tries the row is failed.
3. `sweep` sends every pending row that is due and not claimed: every minute, and whenever a
   consumer starts. A consumer that died mid-send leaves a claim that runs out, and the sweep
   after that sends the message again; a task that never reached the queue (its store was
   down) is picked up the same way.

A message is therefore sent at least once, and twice only when a consumer died after the server
accepted it and before the row was marked: the copy carries the same Message-ID, so mail clients
and servers see it as the same message (and so can a person reading the headers).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import timedelta
from email.utils import parseaddr
from typing import Any, cast

from flask import current_app
from sqlalchemy import CursorResult, delete, or_, select, update

from ..config import mail_lease_seconds
from ..extensions import db
from ..models import utcnow
from ..models.mail import MailState, OutboxMail
from .queue import MAIL_RETRIES, MAIL_RETRY_DELAY

log = logging.getLogger("sibol.emails")

LEASE = timedelta(seconds=mail_lease_seconds())
SWEEP_BATCH = 200  # messages one sweep sends at most; the next minute's takes the rest
KEEP = timedelta(days=30)  # sent and failed rows are kept this long (a resend's Message-ID)

# The message is handed over by this function: (row) -> None, raising when it was not accepted.
Sender = Callable[[OutboxMail], None]


def message_id() -> str:
    """A new Message-ID (RFC 5322) on the sender's domain: random, so never reused."""
    sender = current_app.config.get("MAIL_DEFAULT_SENDER") or ""
    address = parseaddr(sender if isinstance(sender, str) else sender[1])[1]
    domain = address.rpartition("@")[2] or "sibol.local"
    return f"<{secrets.token_hex(16)}@{domain}>"


def add(to: str, subject: str, body: str, html: str, template: str) -> int:
    """Store one message to send and commit it; returns its row id (the task's argument)."""
    row = OutboxMail(
        message_id=message_id(),
        recipient=to,
        subject=subject[:500],
        body=body,
        html=html,
        template=template[:64],
        state=MailState.PENDING,
        next_attempt_at=utcnow().replace(microsecond=0),
    )
    db.session.add(row)
    db.session.commit()
    return row.id


def _claim(outbox_id: int) -> OutboxMail | None:
    """Take the message for one lease, or None when it is sent, failed, not due or held."""
    now = utcnow()
    claimed = db.session.execute(
        update(OutboxMail)
        .where(
            OutboxMail.id == outbox_id,
            OutboxMail.state == MailState.PENDING,
            OutboxMail.next_attempt_at <= now,
            or_(OutboxMail.lease_until.is_(None), OutboxMail.lease_until < now),
        )
        .values(lease_until=now + LEASE, attempts=OutboxMail.attempts + 1)
    )
    db.session.commit()
    if not cast(CursorResult[Any], claimed).rowcount:
        return None
    return db.session.get(OutboxMail, outbox_id, populate_existing=True)


def send(outbox_id: int, deliver: Sender) -> str:
    """Send one message if it is still to be sent: "sent", "retry" (refused, tried again
    later), "failed" (given up), or "skipped" (sent already, or another consumer holds it)."""
    row = _claim(outbox_id)
    if row is None:
        return "skipped"
    try:
        deliver(row)
    except Exception as err:  # noqa: BLE001 - any refusal is logged and tried again
        db.session.rollback()
        return _refused(outbox_id, err)
    db.session.execute(
        update(OutboxMail)
        .where(OutboxMail.id == outbox_id)
        .values(state=MailState.SENT, sent_at=utcnow(), lease_until=None, last_error=None)
    )
    db.session.commit()
    return "sent"


def _refused(outbox_id: int, err: Exception) -> str:
    row = db.session.get_one(OutboxMail, outbox_id, populate_existing=True)
    left = MAIL_RETRIES + 1 - row.attempts
    if left > 0:
        log.warning("Could not send %r to %s (%s); %d tries left", row.template, row.recipient, err, left)
        row.next_attempt_at = utcnow().replace(microsecond=0) + timedelta(seconds=MAIL_RETRY_DELAY)
        outcome = "retry"
    else:
        log.error(
            "Gave up sending %r to %s after %d tries: %s", row.template, row.recipient, row.attempts, err
        )
        row.state = MailState.FAILED
        outcome = "failed"
    row.lease_until = None
    row.last_error = str(err)[:500]
    db.session.commit()
    return outcome


def due(limit: int = SWEEP_BATCH) -> list[int]:
    """Pending messages that are due and held by no live claim, oldest first."""
    now = utcnow()
    ids = db.session.scalars(
        select(OutboxMail.id)
        .where(
            OutboxMail.state == MailState.PENDING,
            OutboxMail.next_attempt_at <= now,
            or_(OutboxMail.lease_until.is_(None), OutboxMail.lease_until < now),
        )
        .order_by(OutboxMail.id)
        .limit(limit)
    )
    found = list(ids)
    db.session.commit()
    return found


def sweep(send_one: Callable[[int], str]) -> int:
    """Send what is due (see `due`) with `send_one(row id)` (which answers as `send` does) and
    forget old sent and failed rows; returns how many were sent."""
    sent = sum(send_one(outbox_id) == "sent" for outbox_id in due())
    db.session.execute(
        delete(OutboxMail).where(
            OutboxMail.state.in_((MailState.SENT, MailState.FAILED)), OutboxMail.created_at < utcnow() - KEEP
        )
    )
    db.session.commit()
    if sent:
        log.info("mail outbox: sent %d waiting message(s)", sent)
    return sent
