"""The queue's consumer runs the telemetry tick every minute: silent machines get their alert."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select

from sibol.extensions import db
from sibol.jobs.queue import huey
from sibol.models import utcnow
from sibol.models.telemetry import Alert, DeviceKey
from sibol.telemetry.tasks import telemetry_tick
from tests.factories_telemetry import keyed_machine


def test_the_consumer_schedules_the_tick_for_every_minute():
    # beside it, every minute: the mail outbox's sweep (tests/api/test_mail_outbox.py); on every
    # quarter hour the collection reminders' job as well
    def due(minute: datetime) -> list[str]:
        return sorted(type(t).__name__ for t in huey.read_periodic(minute))

    assert due(datetime(2026, 11, 23, 13, 37)) == ["mail_sweep", "telemetry_tick"]
    assert due(datetime(2026, 11, 23, 0, 0)) == ["mail_sweep", "remind", "telemetry_tick"]


def test_the_tick_opens_a_silent_alert_for_a_keyed_machine_that_stopped_reporting(app):
    machine, _key = keyed_machine()
    device = db.session.get(DeviceKey, machine.id)
    device.issued_at = utcnow() - timedelta(hours=1)
    db.session.commit()
    result = telemetry_tick.call_local()
    assert result["silent_alerts"] == 1
    alert = db.session.scalar(select(Alert).where(Alert.machine_id == machine.id))
    assert alert is not None and alert.closed_at is None
