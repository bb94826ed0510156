"""Password recovery and first passwords: reset codes by e-mail, set-password links.

Messages are the feature's (sibol/auth/service.py, spec section 5); every write commits once.
"""

from __future__ import annotations

import re

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import func, select

from ..errors import Conflict, Invalid
from ..extensions import db
from ..identity import lockout, onetime, sessions
from ..identity.passwords import PASSWORD_RULE_MESSAGE, hash_password, meets_password_rule, verify_password
from ..identity.tokens import hash_secret
from ..models import Account, AccountStatus, utcnow
from ..models.auth import AccountToken, TokenPurpose
from .mailings import send_reset_code
from .service import BAD_SET_LINK, CODE_FORMAT, INVALID_CODE, check_email
from .tasks import reset_code_mail


def check_code(code: str) -> str:
    if not isinstance(code, str) or not re.fullmatch(
        r"[0-9]{6}", code.strip()
    ):  # \d takes any script's digits
        raise Invalid(_(CODE_FORMAT), field="code")
    return code.strip()


def check_new_password(password: object) -> str:
    if not isinstance(password, str) or not meets_password_rule(password):
        raise Invalid(_(PASSWORD_RULE_MESSAGE), field="newPassword")
    return password


def request_reset(email: str) -> str | None:
    """Queue the reset-code mail for any well-formed address; the task decides whether to send,
    so the caller answers the same, in the same time, whether or not the e-mail is known.

    Returns the code only with SIBOL_DEBUG_CODES (development), where it is issued at once."""
    email = check_email(email)
    if current_app.config.get("SIBOL_DEBUG_CODES"):
        return send_reset_code(email)
    reset_code_mail(email)
    return None


def _live_code(email: str, code: str) -> AccountToken:
    """The live reset-code token the code matches; a wrong code counts against the live one."""
    email, code = check_email(email), check_code(code)
    account = db.session.scalar(select(Account).where(func.lower(Account.email) == email.lower()))
    if account is None:
        raise Invalid(_(INVALID_CODE), field="code")
    token = db.session.scalar(
        select(AccountToken)
        .where(
            AccountToken.account_id == account.id,
            AccountToken.purpose == TokenPurpose.RESET_CODE,
            AccountToken.used_at.is_(None),
            AccountToken.expires_at > utcnow(),
        )
        .order_by(AccountToken.id.desc())
    )
    if token is None or token.failed_attempts >= onetime.MAX_CODE_ATTEMPTS:
        raise Invalid(_(INVALID_CODE), field="code")
    if token.token_hash != hash_secret(f"{account.id}:{code}"):
        onetime.count_wrong_code(token)  # the fifth wrong guess kills the code
        db.session.commit()
        raise Invalid(_(INVALID_CODE), field="code")
    return token


def verify_reset_code(email: str, code: str) -> None:
    token = _live_code(email, code)
    # Judged after any wrong guesses landing at the same moment: past the tries, it is dead.
    live = onetime.still_live(token)
    db.session.commit()
    if not live:
        raise Invalid(_(INVALID_CODE), field="code")


def reset_password(email: str, code: str, new_password: object) -> Account:
    # The rule is checked before the code, so a weak password does not spend a try.
    password = check_new_password(new_password)
    token = _live_code(email, code)
    new_hash = hash_password(password)  # before the code is taken: the row stays locked briefly
    if not onetime.consume(token):  # one of simultaneous resets wins
        db.session.rollback()
        raise Invalid(_(INVALID_CODE), field="code")
    account = token.account
    _set_password(account, new_hash)
    db.session.commit()
    return account


def _set_password(account: Account, new_hash: str) -> None:
    """New hash (the account's own: a temporary password ends); every session and bearer token
    of the account ends; the owner is back, so every sign-in lock of the account is lifted (the
    caller commits)."""
    account.password_hash = new_hash
    account.password_expires_at = None
    sessions.end_everything(account)
    lockout.lift(account)


def replace_temporary_password(account: Account, new_password: object, confirm: object) -> None:
    """The set-your-password step after a sign-in with a temporary password: the new one meets
    the rule and differs from the temporary one. This browser stays signed in; every other
    session and token of the account ends."""
    if not account.password_is_temporary:
        raise Conflict(_("Your password is already your own. Change it on your profile."))
    password = check_new_password(new_password)
    if confirm != password:
        raise Invalid(_("Passwords do not match"), field="confirmPassword")
    if verify_password(account.password_hash, password):
        raise Invalid(_("Choose a password different from the temporary one."), field="newPassword")
    account.password_hash = hash_password(password)
    account.password_expires_at = None
    sessions.end_others(account)
    db.session.commit()
    sessions.keep_signed_in(account)


def set_password_account(raw: str) -> Account:
    """The account a live set-password link belongs to; raises Invalid otherwise."""
    token = onetime.find_link_token(raw or "", TokenPurpose.SET_PASSWORD)
    if token is None:
        raise Invalid(_(BAD_SET_LINK), field="token")
    return token.account


def set_password(raw: str, new_password: object) -> Account:
    """Consume a set-password link (sent on approval) and set the password."""
    password = check_new_password(new_password)
    token = onetime.find_link_token(raw or "", TokenPurpose.SET_PASSWORD)
    if token is None:
        raise Invalid(_(BAD_SET_LINK), field="token")
    new_hash = hash_password(password)
    if not onetime.consume(token):  # one of simultaneous uses wins
        db.session.rollback()
        raise Invalid(_(BAD_SET_LINK), field="token")
    account = token.account
    _set_password(account, new_hash)
    db.session.commit()
    return account


def activate_for_approval(account: Account) -> str:
    """Mark an account approved and return a set-password link (test and CLI helper).

    The admin feature owns approval; this is the minimal step its e-mail relies on.
    """
    account.status = AccountStatus.ACTIVE
    url = onetime.set_password_url(account) if not account.password_hash else ""
    db.session.commit()
    return url
