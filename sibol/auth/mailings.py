"""Sign-in mail: the verification link and the reset code, the queued halves of resend-verification
and forgot-password (sibol/auth/tasks.py queues them), and the owner's notice of a lock-out.

The request only checks the address's form and queues the job, for a known address and an
unknown one alike; the job looks the address up and decides whether anything is sent.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from sqlalchemy import func, select

from .. import emails
from ..extensions import db
from ..identity import onetime
from ..identity.lockout import Notice
from ..models import Account, AccountStatus
from ..models.auth import TokenPurpose
from ..web.links import client_base, email_link


def verification_link(account: Account) -> str:
    """A new single-use link to /email-verification for the account (the caller commits)."""
    raw = onetime.issue_link_token(account, TokenPurpose.VERIFY_EMAIL)
    if client_base():  # the spec's client reads the e-mail too (its waiting and resend states)
        return email_link("/email-verification", {"token": raw, "email": account.email})
    return email_link("/email-verification", {"token": raw})


def verification_email(account: Account, link: str) -> bool:
    """Sign-up: the link to /email-verification (24 hours, single use)."""
    return emails.send_email(
        account.email, _l("Verify your email address"), "auth_verify_email", account=account, link=link
    )


def reset_code_email(account: Account, code: str) -> bool:
    """Forgot Password: the six-digit code (15 minutes, 5 tries)."""
    return emails.send_email(
        account.email, _l("Your password reset code"), "auth_reset_code", account=account, code=code
    )


def _account(email: str) -> Account | None:
    return db.session.scalar(select(Account).where(func.lower(Account.email) == email.strip().lower()))


def send_verification_again(email: str) -> None:
    """A new verification link when the address waits for verification; nothing otherwise."""
    account = _account(email)
    if account is None or account.status != AccountStatus.EMAIL_PENDING:
        return
    link = verification_link(account)
    db.session.commit()
    verification_email(account, link)


def send_reset_code(email: str) -> str | None:
    """A reset code for an active account's e-mail, mailed; returns it (for debugCode)."""
    account = _account(email)
    if account is None or not account.is_active:
        return None
    code = onetime.issue_reset_code(account)
    db.session.commit()
    reset_code_email(account, code)
    return code


def lock_notice(notice: Notice) -> bool:
    """The e-mail to an account's owner when sign-in to it was locked for an address or slowed
    down: which address, for how long, and that a completed password reset lifts it."""
    return emails.send_email(
        notice.account.email,
        _l("Sign-in to your SIBOL account was paused"),
        "auth_locked",
        account=notice.account,
        minutes=notice.minutes,
        address=notice.address,
    )
