"""Sending e-mail: a text and an HTML template per message, through Flask-Mail.

A message is rendered in the request and queued (`deliver` below); the queue's consumer sends it
and tries again when the server refuses. With no MAIL_SERVER configured, messages are
logged and written to outbox/ beside the console's database (instance/outbox/ by default) so a
local run can still finish sign-up and recovery.
E-mail is queued after the change it reports has been committed.
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

from flask import current_app, render_template
from flask_babel import force_locale
from flask_babel import lazy_gettext as _l
from flask_mail import Message

from .config import state_dir
from .extensions import mail
from .i18n.languages import DEFAULT_LANGUAGE, LANGUAGES
from .jobs.queue import MAIL_RETRIES, MAIL_RETRY_DELAY, enqueue, huey, in_app
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
    enqueue(deliver, to, f"SIBOL: {title}", body, html, template, what=f"{template} to {to}")
    return True


@huey.task(retries=MAIL_RETRIES, retry_delay=MAIL_RETRY_DELAY, context=True)
def deliver(to: str, subject: str, body: str, html: str, template: str, task: Any = None) -> bool:
    """Send one rendered message. A failure raises, so Huey tries again later; each failure is
    logged, and so is giving up after the last try."""
    try:
        return in_app(lambda: deliver_now(to, subject, body, html, template))
    except Exception as err:
        left = task.retries if task is not None else 0
        if left:
            log.warning("Could not send %r to %s (%s); %d tries left", template, to, err, left)
        else:
            log.error("Gave up sending %r to %s after %d tries: %s", template, to, MAIL_RETRIES + 1, err)
        raise


def deliver_now(to: str, subject: str, body: str, html: str, template: str) -> bool:
    """Hand one rendered message to the SMTP server (or the outbox); raises when it fails."""
    message = Message(subject=subject, recipients=[to], body=body, html=html)
    if not current_app.config.get("MAIL_SERVER"):
        return _to_outbox(message, template)
    mail.send(message)
    return True


def _to_outbox(message: Message, template: str) -> bool:
    outbox = state_dir(current_app.instance_path) / "outbox"  # one per console, like its queue
    if current_app.config.get("MAIL_SUPPRESS_SEND"):
        # Tests: Flask-Mail records the message (mail.record_messages) without a server.
        mail.send(message)
        return True
    outbox.mkdir(parents=True, exist_ok=True)
    to = message.recipients[0]  # an address, or a (name, address) pair
    safe_to = re.sub(r"[^A-Za-z0-9@._-]", "_", to if isinstance(to, str) else to[1])
    path = outbox / f"{time.strftime('%Y%m%d-%H%M%S')}-{template}-{safe_to}.eml"
    path.write_text(message.as_string())
    current_app.logger.info("MAIL_SERVER is not set: wrote %s to %s\n%s", template, path, message.body)
    return True


def verification_email(account, link: str) -> bool:
    """Sign-up: the link to /email-verification (24 hours, single use)."""
    return send_email(
        account.email, _l("Verify your email address"), "auth_verify_email", account=account, link=link
    )


def reset_code_email(account, code: str) -> bool:
    """Forgot Password: the six-digit code (15 minutes, 5 tries)."""
    return send_email(
        account.email, _l("Your password reset code"), "auth_reset_code", account=account, code=code
    )
