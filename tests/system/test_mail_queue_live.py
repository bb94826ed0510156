"""A real queue consumer beside a real server: a refused send is retried, logged, and arrives."""

from __future__ import annotations

import re
import time

import requests
from aiosmtpd.controller import Controller

from tests.auth_oauth_provider import free_port
from tests.support.servers import (
    AppServer,
    QueueConsumer,
    drop_database,
    fresh_database,
    server_env,
    setup_database,
)


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
