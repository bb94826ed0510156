"""The sign-in feature's queued work: reset codes and verification links, sent by the consumer."""

from __future__ import annotations

from ..jobs.queue import huey, in_app
from . import mailings


@huey.task()
def reset_code_mail(email: str) -> str | None:
    """Forgot Password: issue and mail a code when the address is an active account's.

    Queued for every well-formed address, known or not, so the request does the same work."""
    return in_app(lambda: mailings.send_reset_code(email))


@huey.task()
def verification_mail(email: str) -> None:
    """Resend verification: a new link when the address waits for verification."""
    in_app(lambda: mailings.send_verification_again(email))
