"""The mail outbox through a real SMTP server: each message is a row with its Message-ID until the
server accepted it; a refusal is tried again later and finally given up; a message whose send
was never finished is sent again by the sweep under the same Message-ID, and never once it is
sent. (The consumer killed mid-send: tests/system/test_mail_outbox_live.py.)"""

from __future__ import annotations

import logging
from datetime import timedelta
from email import message_from_bytes

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select

from sibol import emails
from sibol.extensions import db
from sibol.jobs import outbox
from sibol.jobs.queue import MAIL_RETRIES
from sibol.models import utcnow
from sibol.models.mail import MailState, OutboxMail
from tests.auth_oauth_provider import free_port
from tests.factories import make_account
from tests.support.smtp import mail_settings


class SwitchableInbox:
    """Keeps what it accepts; refuses everything with a temporary error while `refusing`."""

    def __init__(self):
        self.messages = []
        self.refusing = False

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        if self.refusing:
            return "451 4.3.0 Try again later"
        self.messages.append(envelope)
        return "250 Message accepted for delivery"


@pytest.fixture(scope="module")
def smtp_inbox():
    inbox = SwitchableInbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller, inbox
    controller.stop()


@pytest.fixture
def app_overrides(smtp_inbox):
    return mail_settings(smtp_inbox[0].port)


@pytest.fixture
def inbox(smtp_inbox):
    inbox = smtp_inbox[1]
    inbox.messages.clear()
    inbox.refusing = False
    yield inbox
    inbox.refusing = False


def rows() -> list[OutboxMail]:
    db.session.expire_all()
    return list(db.session.scalars(select(OutboxMail).order_by(OutboxMail.id)))


def message_ids(inbox) -> list[str]:
    return [message_from_bytes(m.content)["Message-ID"] for m in inbox.messages]


def test_a_message_is_stored_with_its_message_id_and_marked_sent_once_accepted(client, inbox):
    make_account(email="ana@example.test")
    assert client.post("/api/auth/forgot-password", json={"email": "ana@example.test"}).status_code == 200
    (row,) = rows()
    assert row.state == MailState.SENT and row.attempts == 1 and row.sent_at is not None
    assert row.recipient == "ana@example.test" and row.template == "auth_reset_code"
    assert row.message_id.startswith("<") and row.message_id.endswith("@sibol.test>")
    assert message_ids(inbox) == [row.message_id]
    # a sent message is never sent again, by its task or by a sweep
    assert emails.send_stored(row.id) == "skipped"
    assert outbox.sweep(emails.send_stored) == 0
    assert len(inbox.messages) == 1


def test_a_refused_message_waits_for_its_next_try_then_arrives_under_one_message_id(app, inbox, caplog):
    inbox.refusing = True
    with caplog.at_level(logging.WARNING, logger="sibol.emails"):
        assert emails.send_email("ben@example.test", "Hello", "account_rejected", account=make_account())
    (row,) = rows()
    assert row.state == MailState.PENDING and row.attempts == 1 and row.lease_until is None
    assert row.next_attempt_at > utcnow() and "451" in row.last_error
    assert (
        "Could not send 'account_rejected' to ben@example.test" in caplog.text and "tries left" in caplog.text
    )
    # not due yet: neither its task nor the sweep sends it
    inbox.refusing = False
    assert emails.send_stored(row.id) == "skipped" and outbox.sweep(emails.send_stored) == 0
    row.next_attempt_at = utcnow() - timedelta(seconds=1)
    db.session.commit()
    assert outbox.sweep(emails.send_stored) == 1
    (row,) = rows()
    assert row.state == MailState.SENT and row.attempts == 2 and row.last_error is None
    assert message_ids(inbox) == [row.message_id]


def test_a_message_refused_on_every_try_is_given_up_and_logged(app, inbox, caplog):
    inbox.refusing = True
    emails.send_email("cy@example.test", "Hello", "account_rejected", account=make_account())
    for _ in range(MAIL_RETRIES):
        (row,) = rows()
        row.next_attempt_at = utcnow() - timedelta(seconds=1)
        db.session.commit()
        with caplog.at_level(logging.ERROR, logger="sibol.emails"):
            emails.send_stored(row.id)
    (row,) = rows()
    assert row.state == MailState.FAILED and row.attempts == MAIL_RETRIES + 1
    assert (
        f"Gave up sending 'account_rejected' to cy@example.test after {MAIL_RETRIES + 1} tries" in caplog.text
    )
    assert inbox.messages == []


def test_a_send_that_never_finished_is_sent_again_with_the_same_message_id(app, inbox):
    # A consumer claimed the message and died: its claim holds the row until it runs out.
    outbox_id = outbox.add("dee@example.test", "SIBOL: Hello", "text", "<p>html</p>", "notification")
    first = rows()[0].message_id
    assert outbox._claim(outbox_id) is not None  # noqa: SLF001 - the dead consumer's claim
    assert outbox.sweep(emails.send_stored) == 0 and emails.send_stored(outbox_id) == "skipped"
    assert inbox.messages == []
    row = rows()[0]
    row.lease_until = utcnow() - timedelta(seconds=1)  # the claim ran out
    db.session.commit()
    assert outbox.sweep(emails.send_stored) == 1
    assert message_ids(inbox) == [first] and rows()[0].state == MailState.SENT


def test_one_claim_wins_when_two_consumers_reach_one_message(app, inbox):
    outbox_id = outbox.add("eve@example.test", "SIBOL: Hello", "text", "<p>html</p>", "notification")
    assert outbox._claim(outbox_id) is not None  # noqa: SLF001 - a consumer holds it
    assert outbox._claim(outbox_id) is None  # noqa: SLF001 - the other one does not
    assert rows()[0].attempts == 1


def test_a_message_queued_before_the_outbox_joins_it(app, inbox):
    assert emails.deliver.call_local("fay@example.test", "SIBOL: Old", "text", "<p>html</p>", "notification")
    (row,) = rows()
    assert row.state == MailState.SENT and message_ids(inbox) == [row.message_id]


def test_old_sent_and_failed_rows_are_forgotten_by_the_sweep(app, inbox):
    kept = outbox.add("gus@example.test", "SIBOL: New", "t", "h", "notification")
    old = outbox.add("hal@example.test", "SIBOL: Old", "t", "h", "notification")
    emails.send_stored(kept)
    emails.send_stored(old)
    db.session.get(OutboxMail, old).created_at = utcnow() - outbox.KEEP - timedelta(days=1)
    db.session.commit()
    outbox.sweep(emails.send_stored)
    assert [r.id for r in rows()] == [kept]
