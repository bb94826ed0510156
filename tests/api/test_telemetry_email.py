"""Notification e-mail goes through a real SMTP server, after the response, never inside it."""

from __future__ import annotations

from datetime import timedelta
from email import message_from_bytes
from email.policy import default as default_policy

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import RoleId, utcnow
from sibol.models.telemetry import DeviceKey, Notification
from sibol.telemetry import notifications
from sibol.telemetry.cli import tick
from tests.factories import make_account
from tests.factories_telemetry import device, iso, keyed_machine
from tests.support.smtp import mail_settings


@pytest.fixture
def app_overrides(smtp):
    controller, _inbox = smtp
    return mail_settings(controller.port)


def test_an_alert_is_mailed_after_the_response_to_those_who_chose_email(client, api_headers, smtp):
    _controller, inbox = smtp
    inbox.messages.clear()
    wants_mail = make_account(role=RoleId.STAFF, email="ana@example.test")
    console_only = make_account(role=RoleId.STAFF, email="ben@example.test")
    client.put(
        "/api/notifications/preferences", json={"alert_opened": "both"}, headers=api_headers(wants_mail)
    )
    _machine, key = keyed_machine("Digester East")
    res = client.post("/api/telemetry", json={"ts": iso(2), "temperature_c": 45.5}, headers=device(key))
    assert res.status_code == 202
    res.close()  # the server closes the response once sent: the e-mail goes then
    assert [m.rcpt_tos for m in inbox.messages] == [["ana@example.test"]]
    message = message_from_bytes(inbox.messages[0].content, policy=default_policy)
    assert message["Subject"] == "SIBOL: Digester East: Temperature alert opened"
    text = message.get_body(preferencelist=("plain",)).get_content()
    assert (
        "Temperature 45.5 °C, healthy range 30–40." in text
        and "http://localhost/sibol-machines/alerts/" in text
    )
    states = dict(db.session.execute(select(Notification.account_id, Notification.email_state)).all())
    assert states == {wants_mail.id: "sent", console_only.id: "none"}
    assert notifications.deliver_pending() == 0  # never sent twice


def test_the_periodic_tick_mails_a_silent_alert(client, api_headers, smtp):
    _controller, inbox = smtp
    inbox.messages.clear()
    staff = make_account(role=RoleId.STAFF, email="cy@example.test")
    client.put("/api/notifications/preferences", json={"alert_opened": "email"}, headers=api_headers(staff))
    machine, _key = keyed_machine("Digester West")
    db.session.get(DeviceKey, machine.id).issued_at = utcnow() - timedelta(hours=2)
    db.session.commit()
    assert tick()["emails_sent"] == 1
    assert [m.rcpt_tos for m in inbox.messages] == [["cy@example.test"]]
    message = message_from_bytes(inbox.messages[0].content, policy=default_policy)
    assert message["Subject"] == "SIBOL: Digester West: Silent alert opened"
