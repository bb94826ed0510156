"""Sending e-mail: a text and an HTML template per message, through Flask-Mail.

The one verb a feature calls is `send_email` (render, store, queue). `deliver_now` is for a
queued task that keeps its own record of each send and retries it itself (reminders); the rest
is the queue's own (its tasks, the sweep).

A message is rendered in the request, stored in the mail outbox (a database row with its
Message-ID, sibol/jobs/outbox.py) and queued (`send_mail` below); the queue's consumer sends it,
marks it sent only once the SMTP server accepted it, and tries again when the server refuses.
Messages a consumer did not finish (it died, or the queue was unreachable) are sent by the sweep
every minute and when a consumer starts: delivery is at least once. With no MAIL_SERVER
configured, messages are logged and written to outbox/ beside the console's database
(instance/outbox/ by default) so a local run can still finish sign-up and recovery.
E-mail is stored and queued after the change it reports has been committed.
"""

from __future__ import annotations

import logging
import re
import time
from pathlib import Path

from flask import current_app, has_app_context, render_template
from flask_babel import force_locale
from flask_mail import Message
from huey import crontab
from sqlalchemy.exc import SQLAlchemyError

from .config import state_dir
from .extensions import db, mail
from .i18n.languages import DEFAULT_LANGUAGE, LANGUAGES
from .jobs import outbox
from .jobs.queue import MAIL_RETRY_DELAY, enqueue, huey, in_app
from .models.mail import OutboxMail
from .web.links import sign_in_base

log = logging.getLogger("sibol.emails")


def recipient_language(language: str | None = None, account=None) -> str:
    """The language a message goes out in: the recipient's account's choice, else English
    (never the sender's: an admin approving in Filipino mails an English reader in English)."""
    chosen = language or getattr(account, "language", None)
    return chosen if chosen in LANGUAGES else DEFAULT_LANGUAGE


def send_email(
    to: str | None, subject: str, template: str, *, language: str | None = None, **context
) -> bool:
    """Render templates/email/<template>.txt and .html in the recipient's language and queue
    them. `subject` may be lazy (lazy_gettext): it is rendered in that language. True when queued."""
    if not to:
        return False
    # base_url is where the messages send people to sign in (/login): the spec's client when
    # SIBOL_CLIENT_URL is set. Links to steps only our pages have are built with SIBOL_BASE_URL.
    context.setdefault("base_url", sign_in_base())
    with force_locale(recipient_language(language, context.get("account"))):
        title = str(subject)
        body = render_template(f"email/{template}.txt", **context)
        html = render_template(f"email/{template}.html", **context)
    return _store_and_queue(to, f"SIBOL: {title}", body, html, template)


def _store_and_queue(to: str, subject: str, body: str, html: str, template: str) -> bool:
    """Store a rendered message in the outbox, then queue its delivery. When the database
    refuses the row, the request does not fail for it (the change it reports is committed):
    the message is logged as lost. When only the queue is unreachable, the sweep sends it."""
    try:
        outbox_id = outbox.add(to, subject, body, html, template)
    except SQLAlchemyError:
        db.session.rollback()
        (current_app.logger if has_app_context() else log).exception("Could not store %s to %s", template, to)
        return False
    enqueue(send_mail, outbox_id, what=f"{template} to {to}")
    return True


@huey.task()
def send_mail(outbox_id: int) -> str:
    """Send one stored message (sibol/jobs/outbox.py says when it is skipped or tried again)."""
    return in_app(lambda: send_stored(outbox_id))


def send_stored(outbox_id: int) -> str:
    """Send one stored message now; a refused one is queued again for when its next try is due
    (should that fail too, the sweep takes it then)."""
    outcome = outbox.send(outbox_id, _deliver_row)
    if outcome == "retry":
        try:
            send_mail.schedule((outbox_id,), delay=MAIL_RETRY_DELAY)
        except Exception:
            log.exception("Could not queue the next try of message %s; the sweep will send it", outbox_id)
    return outcome


@huey.task()
def deliver(to: str, subject: str, body: str, html: str, template: str) -> bool:
    """A message queued by an older console, before the outbox: it joins the outbox now."""
    return in_app(lambda: _store_and_queue(to, subject, body, html, template))


@huey.periodic_task(crontab(minute="*"))
def mail_sweep() -> int:
    """Every minute on the consumer: messages whose send was never finished (see jobs/outbox.py)."""
    return in_app(lambda: outbox.sweep(send_stored))


@huey.on_startup()
def sweep_on_start() -> None:
    """A consumer that starts (after a crash, too) first sends what was left waiting."""
    in_app(lambda: outbox.sweep(send_stored))


def _deliver_row(row: OutboxMail) -> None:
    """Hand one stored message to the SMTP server (or the outbox folder); raises when it fails."""
    deliver_now(row.recipient, row.subject, row.body, row.html, row.template, message_id=row.message_id)


def deliver_now(
    to: str, subject: str, body: str, html: str, template: str, *, message_id: str | None = None
) -> bool:
    """Hand one rendered message to the SMTP server (or the outbox); raises when it fails."""
    message = Message(subject=subject, recipients=[to], body=body, html=html)
    if message_id:
        message.msgId = message_id  # a resend carries the first try's Message-ID
    if not current_app.config.get("MAIL_SERVER"):
        return _to_outbox(message, template)
    mail.send(message)
    return True


def _to_outbox(message: Message, template: str) -> bool:
    folder = state_dir(current_app.instance_path) / "outbox"  # one per console, like its queue
    if current_app.config.get("MAIL_SUPPRESS_SEND"):
        # Tests: Flask-Mail records the message (mail.record_messages) without a server.
        mail.send(message)
        return True
    folder.mkdir(parents=True, exist_ok=True)
    to = message.recipients[0]  # an address, or a (name, address) pair
    safe_to = re.sub(r"[^A-Za-z0-9@._-]", "_", to if isinstance(to, str) else to[1])
    stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{template}-{safe_to}"
    path = _new_file(folder, stem, message.as_string())
    current_app.logger.info("MAIL_SERVER is not set: wrote %s to %s\n%s", template, path, message.body)
    return True


def _new_file(folder: Path, stem: str, text: str) -> Path:
    """Write `text` to `<stem>.eml`, or `<stem>-2.eml`, `-3`... when a mail of the same second,
    kind and address is already there: created exclusively, so no mail overwrites another."""
    n = 1
    while True:
        path = folder / (f"{stem}.eml" if n == 1 else f"{stem}-{n}.eml")
        try:
            with path.open("x", encoding="utf-8") as file:
                file.write(text)
            return path
        except FileExistsError:
            n += 1
