"""E-mail leaves the request through the task queue: the same work for known and unknown
addresses, and a real consumer that retries a refused send and logs it."""

from __future__ import annotations

import re
import time

import pytest
import requests
from aiosmtpd.controller import Controller
from sqlalchemy import func, select

from sibol.extensions import db, mail
from sibol.models.auth import AccountToken
from sibol.tasks import huey
from tests.auth_oauth_provider import free_port
from tests.factories import make_account
from tests.support.servers import (
    AppServer,
    QueueConsumer,
    drop_database,
    fresh_database,
    server_env,
    setup_database,
)


@pytest.fixture
def queued(monkeypatch):
    """Tasks wait in the (in-memory) queue instead of running in the request."""
    huey.flush()
    monkeypatch.setattr(huey, "_immediate", False)
    yield
    huey.flush()


def run_pending() -> None:
    while pending := huey.pending():
        for task in pending:
            huey.storage.dequeue()
            huey.execute(task)


def token_count() -> int:
    return db.session.scalar(select(func.count(AccountToken.id))) or 0


@pytest.mark.parametrize(
    ("path", "task_name", "account_status"),
    [
        ("/api/auth/forgot-password", "reset_code_mail", "active"),
        ("/api/auth/resend-verification", "verification_mail", "email_pending"),
    ],
)
def test_known_and_unknown_addresses_queue_the_same_job_and_nothing_else(
    client, queued, path, task_name, account_status
):
    make_account(email="known@example.test", status=account_status)
    answers = []
    with mail.record_messages() as outbox:
        for email in ("known@example.test", "nobody@example.test"):
            res = client.post(path, json={"email": email})
            answers.append((res.status_code, res.json))
        jobs = [(task.name, task.args, task.kwargs) for task in huey.pending()]
        # The requests did the same: one job each, same task, the address its only argument;
        # no code or link issued and no mail sent inside either request.
        assert answers[0] == answers[1] and answers[0][0] == 200
        assert jobs == [
            (task_name, ("known@example.test",), {}),
            (task_name, ("nobody@example.test",), {}),
        ]
        assert outbox == [] and token_count() == 0
        run_pending()  # the consumer's part: only the known address gets mail
    assert [m.recipients for m in outbox] == [["known@example.test"]]
    assert token_count() == 1


def test_page_form_of_forgot_password_queues_the_same_job(client, queued):
    make_account(email="known@example.test")
    client.post("/forgot-password", data={"email": "known@example.test"})
    client.post("/forgot-password", data={"email": "nobody@example.test"})
    assert [(t.name, t.args) for t in huey.pending()] == [
        ("reset_code_mail", ("known@example.test",)),
        ("reset_code_mail", ("nobody@example.test",)),
    ]


class FlakyInbox:
    """An SMTP server that refuses the first message with a temporary error."""

    def __init__(self):
        self.attempts = 0
        self.messages = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        self.attempts += 1
        if self.attempts == 1:
            return "451 4.3.0 Try again later"
        self.messages.append(envelope)
        return "250 Message accepted for delivery"


def test_real_consumer_retries_a_refused_send_and_logs_it(tmp_path):
    inbox = FlakyInbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    url = fresh_database(tmp_path, "mailq")
    env = server_env(url, MAIL_SERVER="127.0.0.1", MAIL_PORT=str(smtp.port), SIBOL_MAIL_RETRY_DELAY="1")
    setup_database(env)
    server = AppServer(env, log=tmp_path / "server.log").start()
    consumer = QueueConsumer(env, tmp_path / "consumer.log").start()
    try:
        res = requests.post(
            f"{server.url}/api/auth/forgot-password", json={"email": "admin@example.test"}, timeout=10
        )
        assert res.status_code == 200 and "debugCode" not in res.json()
        deadline = time.monotonic() + 60
        while not inbox.messages and time.monotonic() < deadline:
            time.sleep(0.2)
        assert inbox.attempts == 2 and len(inbox.messages) == 1
        assert inbox.messages[0].rcpt_tos == ["admin@example.test"]
        code = re.search(rb"\b(\d{6})\b", inbox.messages[0].content).group(1).decode()
        log = (tmp_path / "consumer.log").read_text()
        assert "Could not send 'auth_reset_code' to admin@example.test" in log and "tries left" in log
        # The code that arrived on the second try works.
        reset = requests.post(
            f"{server.url}/api/auth/reset-password",
            json={"email": "admin@example.test", "code": code, "newPassword": "N3w!passw0rd"},
            timeout=10,
        )
        assert reset.status_code == 200, reset.text
    finally:
        consumer.stop()
        server.stop()
        smtp.stop()
        drop_database(url)
