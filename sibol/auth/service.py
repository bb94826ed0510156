"""Sign-in and sign-out rules shared by the /login page and /api/auth."""

from __future__ import annotations

from flask_login import login_user, logout_user
from sqlalchemy import func, select

from ..api.tokens import issue_token, revoke_token
from ..errors import Forbidden, Unauthorized
from ..extensions import db
from ..models import Account, AccountStatus
from ..passwords import hash_password, needs_rehash, verify_password

# A real hash to verify against when the username is unknown, so both paths take as long.
_DUMMY_HASH = hash_password("not-a-real-password-Aa1!")

REFUSALS = {
    AccountStatus.EMAIL_PENDING: "Please verify your email address before signing in.",
    AccountStatus.PENDING: "Your account is awaiting admin approval.",
    AccountStatus.REJECTED: "Your account registration was rejected.",
}
DISABLED = "Your account has been disabled. Contact your barangay administrator."
WRONG = "Invalid username or password."


def authenticate(username: str, password: str) -> Account:
    """The active account for these credentials; raises Unauthorized/Forbidden saying why."""
    username = (username or "").strip()
    account = None
    if 0 < len(username) <= 254:
        account = db.session.scalar(
            select(Account).where(
                (func.lower(Account.username) == username.lower())
                | (func.lower(Account.email) == username.lower())
            )
        )
    if account is None or not account.password_hash:
        verify_password(_DUMMY_HASH, password)
        raise Unauthorized(WRONG)
    if not verify_password(account.password_hash, password):
        raise Unauthorized(WRONG)
    if account.status != AccountStatus.ACTIVE:
        raise Forbidden(REFUSALS.get(AccountStatus(account.status), "Your account is not active."), status=account.status)
    if not account.is_enabled:
        raise Forbidden(DISABLED, status="disabled")
    if needs_rehash(account.password_hash):
        account.password_hash = hash_password(password)
        db.session.commit()
    return account


def start_session(account: Account, *, with_token: bool) -> str | None:
    """Sign the browser in (page session) and, for API callers, issue a bearer token."""
    login_user(account)
    token = issue_token(account) if with_token else None
    db.session.commit()
    return token


def end_session(raw_token: str | None) -> None:
    if raw_token:
        revoke_token(raw_token)
        db.session.commit()
    logout_user()
