"""No e-mail is lost when the queue consumer dies mid-send: the real consumer is SIGKILLed while
the real SMTP server holds a message, twice, and every message still arrives. A copy that a
crash made the server receive twice carries the same Message-ID as the first.

Kill 1 comes after the server accepted the held message (the consumer never heard it): that
message arrives twice, with one Message-ID. Kill 2 comes before the server accepted its resend:
that try is lost and the next consumer sends it again.
"""

from __future__ import annotations

import asyncio
import email
import threading
import time
from collections import defaultdict
from pathlib import Path

import requests
from aiosmtpd.controller import Controller
from sqlalchemy import create_engine, text

from tests.auth_oauth_provider import free_port
from tests.support.servers import (
    AppServer,
    QueueConsumer,
    admin_headers,
    drop_database,
    fresh_database,
    server_env,
    setup_database,
)

MESSAGES = 20
LEASE = 3  # seconds a consumer holds a message it is sending (SIBOL_MAIL_LEASE_SECONDS)


class HoldingInbox:
    """An SMTP server that keeps every message, and can hold its answer to the next one until the
    client goes away: having kept the message first (the server has it, the client never hears
    so) or not (the client dies before the server took it)."""

    def __init__(self):
        self.messages = []
        self.holding = threading.Event()
        self._keep_next: bool | None = None

    def hold_next(self, *, keep: bool) -> None:
        self.holding.clear()
        self._keep_next = keep

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        if self._keep_next is not None:
            keep, self._keep_next = self._keep_next, None
            if keep:
                self.messages.append(envelope)
            self.holding.set()
            while True:  # no answer: aiosmtpd cancels this wait when the client's connection ends
                await asyncio.sleep(0.05)
        self.messages.append(envelope)
        return "250 Message accepted for delivery"


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def started(consumer: QueueConsumer, log: Path, starts: int) -> QueueConsumer:
    consumer.start()
    wait_for(lambda: log.read_text().count("Huey consumer started") >= starts, 60, "the consumer to start")
    return consumer


def test_a_consumer_killed_mid_send_loses_no_mail(tmp_path):
    inbox = HoldingInbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    url = fresh_database(tmp_path, "outbox")
    env = server_env(
        url,
        MAIL_SERVER="127.0.0.1",
        MAIL_PORT=str(smtp.port),
        SIBOL_MAIL_RETRY_DELAY="1",
        SIBOL_MAIL_LEASE_SECONDS=str(LEASE),
    )
    setup_database(env)
    log = tmp_path / "consumer.log"
    log.write_text("")
    server = AppServer(env, log=tmp_path / "server.log").start()
    consumers: list[QueueConsumer] = []
    try:
        inbox.hold_next(keep=True)
        consumers.append(started(QueueConsumer(env, log), log, 1))
        headers = admin_headers(server.url)
        recipients = [f"person{n:02d}@example.test" for n in range(MESSAGES)]
        for n, address in enumerate(recipients):
            res = requests.post(
                f"{server.url}/api/admin/create",
                json={"FirstName": "Person", "LastName": f"Number{n:02d}", "Email": address, "Roles": 2},
                headers=headers,
                timeout=10,
            )
            assert res.status_code == 201, res.text
        # Kill 1: the server has the whole first message; its answer waits; the consumer dies.
        assert inbox.holding.wait(60), "the consumer never sent"
        consumers[-1].kill()
        assert len(inbox.messages) == 1  # the server kept it; the consumer never heard so
        inbox.hold_next(keep=False)  # the next message is its resend: held, then lost
        time.sleep(LEASE + 0.5)  # the dead consumer's claim runs out
        # Kill 2: the next consumer resends that message first; it dies before the answer.
        consumers.append(started(QueueConsumer(env, log), log, 2))
        assert inbox.holding.wait(60), "the resend never came"
        consumers[-1].kill()
        time.sleep(LEASE + 0.5)
        consumers.append(started(QueueConsumer(env, log), log, 3))
        wait_for(lambda: {m.rcpt_tos[0] for m in inbox.messages} >= set(recipients), 90, "every message")
        wait_for(lambda: sent_rows(url) == MESSAGES, 30, "every row marked sent")
    finally:
        for consumer in consumers:
            consumer.stop()
        server.stop()
        smtp.stop()

    by_recipient: dict[str, list[str]] = defaultdict(list)
    for envelope in inbox.messages:
        parsed = email.message_from_bytes(envelope.content)
        assert parsed["Message-ID"], "every message carries a Message-ID"
        by_recipient[envelope.rcpt_tos[0]].append(parsed["Message-ID"])
    assert sorted(by_recipient) == recipients  # every one arrived
    copies = {address: ids for address, ids in by_recipient.items() if len(ids) > 1}
    assert len(copies) == 1, copies  # the one the server accepted while its consumer died
    (twice,) = copies.values()
    assert len(twice) == 2 and twice[0] == twice[1]  # the same message, recognisably
    assert len({ids[0] for ids in by_recipient.values()}) == MESSAGES  # one Message-ID each
    drop_database(url)


def sent_rows(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT COUNT(*) FROM mail_outbox WHERE state = 'sent'")).scalar_one()
    finally:
        engine.dispose()
