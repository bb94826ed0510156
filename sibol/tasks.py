"""The task queue (Huey): e-mail leaves the request and is sent, and retried, by a consumer.

Storage follows SIBOL_QUEUE_URL (sibol.config.queue_url): a SQLite file in instance/ by
default, Redis when it names one. `make run` starts `huey_consumer sibol.tasks.huey` beside
gunicorn. In tests (app.testing) or with SIBOL_QUEUE_IMMEDIATE=1 a task runs at once, in the
request that queued it.

A task that needs the app (templates, database, mail settings) runs inside the request's app
context in immediate mode, or inside one app built per consumer process otherwise.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from flask import Flask, current_app, has_app_context
from huey import Huey, RedisHuey, SqliteHuey, crontab

from .config import mail_retry_settings, queue_url

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("sibol.tasks")
T = TypeVar("T")


def make_huey(url: str) -> Huey:
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisHuey("sibol", url=url, results=False)
    path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else url
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return SqliteHuey("sibol", filename=path, results=False)


huey = make_huey(queue_url(str(ROOT / "instance")))
MAIL_RETRIES, MAIL_RETRY_DELAY = mail_retry_settings()
_consumer_app: Flask | None = None


def init_app(app: Flask) -> None:
    huey.immediate = bool(app.config.get("SIBOL_QUEUE_IMMEDIATE") or app.testing)


def in_app(work: Callable[[], T]) -> T:
    """Run `work` with an app context: the caller's, or this consumer process's own app."""
    global _consumer_app
    if has_app_context():
        return work()
    if _consumer_app is None:
        from . import create_app

        _consumer_app = create_app()
    with _consumer_app.app_context():
        try:
            return work()
        finally:
            from .extensions import db

            db.session.remove()


@huey.task(retries=MAIL_RETRIES, retry_delay=MAIL_RETRY_DELAY, context=True)
def deliver(to: str, subject: str, body: str, html: str, template: str, task: Any = None) -> bool:
    """Send one rendered message. A failure raises, so Huey tries again later; each failure is
    logged, and so is giving up after the last try."""
    from .emails import deliver_now

    try:
        return in_app(lambda: deliver_now(to, subject, body, html, template))
    except Exception as err:
        left = task.retries if task is not None else 0
        if left:
            log.warning("Could not send %r to %s (%s); %d tries left", template, to, err, left)
        else:
            log.error("Gave up sending %r to %s after %d tries: %s", template, to, MAIL_RETRIES + 1, err)
        raise


@huey.task()
def reset_code_mail(email: str) -> str | None:
    """Forgot Password: issue and mail a code when the address is an active account's.

    Queued for every well-formed address, known or not, so the request does the same work."""
    from .auth import mailings

    return in_app(lambda: mailings.send_reset_code(email))


@huey.task()
def verification_mail(email: str) -> None:
    """Resend verification: a new link when the address waits for verification."""
    from .auth import mailings

    in_app(lambda: mailings.send_verification_again(email))


@huey.task()
def notification_mail() -> int:
    """Notifications waiting for their e-mail (telemetry alerts and the like): each is rendered
    and handed to `deliver` once (the rows are claimed, so two runs never send one twice)."""
    from .telemetry import notifications

    return in_app(notifications.deliver_pending)


@huey.periodic_task(crontab(minute="*"))
def telemetry_tick() -> dict[str, int]:
    """Every minute on the consumer: silent machines, overdue maintenance, raw retention and
    any notification e-mail still pending (`flask telemetry-tick` runs the same by hand)."""
    from .telemetry.cli import tick

    return in_app(tick)


def queue_notification_mail() -> None:
    try:
        notification_mail()
    except Exception:  # the queue's store unreachable: the tick sends them later
        (current_app.logger if has_app_context() else log).exception("Could not queue notification mail")


def queue_deliver(to: str, subject: str, body: str, html: str, template: str) -> None:
    try:
        deliver(to, subject, body, html, template)
    except Exception:  # the queue's store unreachable: logged; the change itself is committed
        (current_app.logger if has_app_context() else log).exception("Could not queue %r to %s", template, to)
