"""The subscriber's "telemetry" handler: readings published to sibol/v1/machines/{id}/telemetry.

Importing this module registers it (sibol/cli.py does, for `flask mqtt subscribe`).
"""

from __future__ import annotations

import logging

from ...mqtt import Message, register
from .. import batch
from ..tasks import queue_notification_mail

log = logging.getLogger(__name__)


def store_telemetry(messages: list[Message]) -> batch.BatchResult:
    """Readings in one transaction (telemetry.batch), then e-mail for new notifications."""
    result = batch.store_messages(batch.Incoming(m.machine_id, m.payload, m.retained) for m in messages)
    log.info(
        "batch: received %d stored %d duplicates %d refused %d",
        len(messages),
        result.stored,
        result.duplicates,
        result.refused,
    )
    if result.notified:
        queue_notification_mail()
    return result


register("telemetry", store_telemetry)
