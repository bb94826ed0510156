"""The sign-in pages' second step: the password (or Google) was right, the authenticator's code
comes next.

The password is never carried to the second form. The server keeps a single-use pending
sign-in (an account token of purpose SECOND_STEP, 5 minutes, 5 wrong codes at most; only its
hash is stored) and the browser's signed session cookie holds its secret with how the sign-in
began (`via`: password or google) and where it goes next. A wrong code counts with the lockout
exactly as a wrong password does.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import session
from flask_babel import gettext as _

from ..errors import Invalid, Unauthorized
from ..extensions import db
from ..i18n.languages import N_
from ..identity import lockout, onetime, totp
from ..models import Account
from ..models.auth import AccountToken, TokenPurpose
from . import service

SESSION_KEY = "sibol_second_step"
EXPIRED = N_("Your sign-in took too long. Sign in again.")


@dataclass
class Pending:
    account: Account
    via: str  # "password" or "google"
    next: str


def hold(account: Account, *, via: str, next_url: str | None = None) -> None:
    """Keep the sign-in waiting for its code (commits); an earlier waiting one of the account ends."""
    raw = onetime.issue_link_token(account, TokenPurpose.SECOND_STEP)
    db.session.commit()
    session[SESSION_KEY] = {"token": raw, "via": via, "next": (next_url or "")[:500]}


def _state() -> dict | None:
    state = session.get(SESSION_KEY)
    if not isinstance(state, dict) or not isinstance(state.get("token"), str):
        return None
    return state


def _token(state: dict | None) -> AccountToken | None:
    token = onetime.find_link_token(state["token"], TokenPurpose.SECOND_STEP) if state else None
    if token is None or token.failed_attempts >= onetime.MAX_CODE_ATTEMPTS:
        return None
    return token


def pending() -> Pending | None:
    """The sign-in this browser has waiting for its code, while it is live."""
    state = _state()
    token = _token(state)
    if state is None or token is None:
        return None
    return Pending(token.account, str(state.get("via") or "password"), str(state.get("next") or ""))


def drop() -> None:
    session.pop(SESSION_KEY, None)


def finish(code: str) -> Pending:
    """Check the code of the waiting sign-in; the sign-in is complete when it is right (the
    caller starts the session). Raises Invalid (field form) when nothing waits any more,
    Unauthorized (field totp) for a wrong code, lockout.Refused past the lockout's limits."""
    state = _state()
    token = _token(state)
    if state is None or token is None:
        drop()
        raise Invalid(_(EXPIRED), field="form")
    account = token.account
    code = (code or "").strip()[:40]
    if not code:
        raise Invalid(_(service.CODE_NEEDED), field="totp")
    try:
        attempt = lockout.begin(account, account.username)
    except lockout.Refused as refused:
        refused.field = "totp"
        raise
    if not totp.check_second_factor(account, code):
        onetime.count_wrong_code(token)
        try:
            service.count_wrong_password(attempt)
        except lockout.Locked as locked:
            locked.field = "totp"
            raise
        raise Unauthorized(_(service.WRONG_CODE), field="totp")
    if not onetime.consume(token):  # a simultaneous submit of this sign-in won
        db.session.rollback()
        drop()
        raise Invalid(_(EXPIRED), field="form")
    attempt.succeeded()
    db.session.commit()
    drop()
    service.refuse_inactive(account)  # disabled (or its barangay closed) while the code was typed
    return Pending(account, str(state.get("via") or "password"), str(state.get("next") or ""))
