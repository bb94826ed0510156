"""E-mail leaves the request through the task queue: the same work for known and unknown
addresses (the real consumer is in tests/system/test_mail_queue_live.py)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from sibol.extensions import db, mail
from sibol.jobs.queue import huey
from sibol.models.auth import AccountToken
from tests.factories import make_account


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
