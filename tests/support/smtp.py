"""A real SMTP server for the e-mail tests (aiosmtpd on a free loopback port) and its inbox."""

from __future__ import annotations

from collections.abc import Iterator

from aiosmtpd.controller import Controller

from tests.auth_oauth_provider import free_port


class Inbox:
    """Keeps every message the server accepts (aiosmtpd envelopes)."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        self.messages.append(envelope)
        return "250 Message accepted for delivery"


def smtp_server() -> Iterator[tuple[Controller, Inbox]]:
    """For a module-scoped fixture: `yield from smtp_server()`."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield controller, inbox
    finally:
        controller.stop()


def mail_settings(port: int, **extra) -> dict:
    """The app's settings that send real mail through the test SMTP server listening on `port`."""
    return {
        "MAIL_SERVER": "127.0.0.1",
        "MAIL_PORT": port,
        "MAIL_SUPPRESS_SEND": False,
        "MAIL_DEFAULT_SENDER": "SIBOL <no-reply@sibol.test>",
        **extra,
    }
