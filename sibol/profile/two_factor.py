"""The account's own second factor: set up an authenticator app (a secret to scan, confirmed by
its first code, which gives ten recovery codes), and turn it off with the password and a code.
The rules of the codes themselves are sibol/identity/totp.py's."""

from __future__ import annotations

from flask_babel import gettext as _

from ..auth.service import count_wrong_password
from ..errors import Conflict, Invalid
from ..extensions import db
from ..i18n.languages import N_
from ..identity import lockout, totp
from ..identity.passwords import verify_password
from ..models import Account

CODE_FORMAT = N_("Enter the 6-digit code your authenticator app shows.")


def _account(account: Account) -> Account:
    """The account itself, not the current_user proxy."""
    return getattr(account, "_get_current_object", lambda: account)()


def start(account: Account) -> tuple[str, str]:
    """A new secret for the account's authenticator app and its otpauth:// address (commits).
    409 when the account already has a confirmed one: it is turned off first."""
    account = _account(account)
    if totp.enrolled(account):
        raise Conflict(_("Two-step sign-in is already on. Turn it off first to move it to another app."))
    secret = totp.start(account)
    db.session.commit()
    return secret, totp.provisioning_uri(account, secret)


def confirm(account: Account, code: str) -> list[str]:
    """The first code from the app confirms the set-up; returns the ten recovery codes (commits)."""
    account = _account(account)
    if not totp.CODE_RE.match(totp.normalize_code(code)):
        raise Invalid(_(CODE_FORMAT), field="code")
    if totp.enrolled(account):
        raise Conflict(_("Two-step sign-in is already on."), field="code")
    if totp.pending_secret(account) is None:
        raise Conflict(_("Start the set-up first: there is no app waiting for its first code."), field="code")
    if not totp.accept_code(account, code, confirmed=False):
        db.session.rollback()
        raise Invalid(
            _("That code is not right. Check that the app shows SIBOL and enter its current code."),
            field="code",
        )
    codes = totp.confirm(account)
    db.session.commit()
    return codes


def disable(account: Account, password: str, code: str) -> None:
    """Turn the second factor off: the password and a code (of the app or a recovery code) are
    both needed, and checked as one sign-in check of the lockout: a wrong one counts as a wrong
    password (a stolen session cannot guess them faster than the sign-in form could)."""
    account = _account(account)
    if not totp.enrolled(account):
        raise Conflict(_("Two-step sign-in is not on."))
    if not password:
        raise Invalid(_("Type your password."), field="password")
    if not code.strip():
        raise Invalid(_(CODE_FORMAT), field="code")
    try:
        attempt = lockout.begin(account, account.username)
    except lockout.Refused as refused:
        refused.field = "password"
        raise
    password_ok = verify_password(account.password_hash, password)
    # A code is spent only with the right password.
    if not password_ok or not totp.check_second_factor(account, code):
        field, message = (
            ("password", _("Your password is not right."))
            if not password_ok
            else ("code", _("That code is not right, or it was already used."))
        )
        try:
            count_wrong_password(attempt)
        except lockout.Locked as locked:
            locked.field = field
            raise
        raise Invalid(message, field=field)
    totp.remove(account)
    attempt.succeeded()
    db.session.commit()


def status(account: Account) -> dict:
    """What the profile shows: on or not, waiting for a first code, recovery codes left, required."""
    account = _account(account)
    on = totp.enrolled(account)
    return {
        "enabled": on,
        "pending": not on and totp.pending_secret(account) is not None,
        "recoveryCodesLeft": totp.recovery_codes_left(account) if on else 0,
        "required": totp.required_for(account),
    }
