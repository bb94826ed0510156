"""Telemetry's queued work: notification e-mail and the minute tick, run by the consumer."""

from __future__ import annotations

from huey import crontab

from ..jobs.queue import enqueue, huey, in_app
from . import notifications
from .cli import tick


@huey.task()
def notification_mail() -> int:
    """Notifications waiting for their e-mail (telemetry alerts and the like): each is rendered
    and handed to the mail queue once (the rows are claimed, so two runs never send one twice)."""
    return in_app(notifications.deliver_pending)


@huey.periodic_task(crontab(minute="*"))
def telemetry_tick() -> dict[str, int]:
    """Every minute on the consumer: silent machines, overdue maintenance, raw retention and
    any notification e-mail still pending (`flask telemetry-tick` runs the same by hand)."""
    return in_app(tick)


def queue_notification_mail() -> None:
    """After a commit that created notifications: their e-mail leaves from the queue (when the
    queue is unreachable, the next tick sends them)."""
    enqueue(notification_mail, what="notification mail")
