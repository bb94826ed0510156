"""The reminder job: every quarter of an hour the consumer plans the evening's reminders and
sends each through its channel; a failure goes back to the queue's back-off until the last try.
`flask remind` (sibol/cli.py) runs the same by hand."""

from __future__ import annotations

from flask import current_app, render_template
from flask_babel import force_locale
from huey import crontab

from ..emails import deliver_now
from ..extensions import db
from ..identity import tenancy
from ..jobs.queue import MAIL_RETRIES, MAIL_RETRY_DELAY, enqueue, huey, in_app
from ..models import Barangay, CollectionSchedule
from ..web.links import email_link
from . import service, texts
from .gateway import SmsError, gateway_from


class RetryLater(Exception):
    """A reminder that failed and has tries left: Huey runs it again after its delay."""


def stop_url(token: str) -> str:
    return email_link(f"/r/stop/{token}")


def send_now(message_id: int) -> str:
    """Send one reminder if it is still due; returns its status. Raises RetryLater on a failure
    with tries left."""
    with tenancy.unscoped():
        message = service.claim(message_id)
        if message is None:
            return "skipped"
        sub = message.subscription
        schedule = db.session.get(CollectionSchedule, message.schedule_id)
        barangay = db.session.get(Barangay, message.barangay_id)
        if schedule is None or barangay is None:  # pragma: no cover - claim() checked both
            return "skipped"
        area = ", ".join(schedule.area_names)
        error, parts = None, 1
        try:
            if message.channel == "sms":
                gateway = gateway_from(current_app.config)
                if gateway is None:
                    raise SmsError("SMS is off: SIBOL_SMS_URL and SIBOL_SMS_API_KEY are not set")
                text = texts.sms_text(
                    sub.language,
                    barangay.name,
                    area,
                    schedule.collection_date,
                    stop_url(sub.stop_token),
                    barangay.collection_window,
                )
                parts = gateway.send(sub.mobile or "", text).parts
            else:
                with force_locale(sub.language):
                    context = {"barangay": barangay.name, "area": area, "day": schedule.collection_date}
                    context["window"] = barangay.collection_window
                    context["stop"] = stop_url(sub.stop_token)
                    subject = f"SIBOL {barangay.name}: {render_template('email/reminder_subject.txt', **context).strip()}"
                    body = render_template("email/reminder.txt", **context)
                    html = render_template("email/reminder.html", **context)
                deliver_now(sub.email or "", subject, body, html, "reminder")
        except Exception as err:  # the gateway's or the mail server's refusal, or no answer
            error = f"{err.__class__.__name__}: {err}"
        if service.finish(message, error, parts):
            raise RetryLater(error)
        return message.status


@huey.task(retries=MAIL_RETRIES, retry_delay=MAIL_RETRY_DELAY)
def send_reminder(message_id: int) -> str:
    return in_app(lambda: send_now(message_id))


def run() -> list[int]:
    """Plan the due reminders and queue each one's send."""
    due = service.plan(sms_on=gateway_from(current_app.config) is not None)
    for message_id in due:
        enqueue(send_reminder, message_id, what=f"reminder {message_id}")
    return due


@huey.periodic_task(crontab(minute="*/15"))
def remind() -> int:
    return len(in_app(run))
