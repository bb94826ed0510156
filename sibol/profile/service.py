"""Profile rules: name and contact number, e-mail change (takes effect when the link sent to the
new address is opened), password change (ends every other session and token), sign-ins, sessions."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError

from .. import emails
from ..auth.service import count_wrong_password
from ..errors import Conflict, Invalid, NotFound
from ..extensions import db
from ..identity import lockout, sessions, tenancy
from ..identity.passwords import PASSWORD_RULE_MESSAGE, hash_password, meets_password_rule, verify_password
from ..identity.tokens import bearer_from_request, hash_secret
from ..inputs import rules
from ..inputs.fields import Errors
from ..models import Account, ApiToken, EmailChange, SignIn, SignInMethod, utcnow
from .browsers import browser_name

SIGN_INS_SHOWN = 10
SIGN_INS_KEPT = 50
EMAIL_CHANGE_LIFETIME = timedelta(hours=24)
NAME_RE = re.compile(r"^[^\W\d_]+(?:[ .'-]+[^\W\d_]+)*\.?$")


# Sign-ins --------------------------------------------------------------------------------------


def _rows_changed(statement) -> int:
    """Runs an UPDATE and answers how many rows it changed (the race checks read this)."""
    result: CursorResult = db.session.execute(statement)  # type: ignore[assignment]
    return result.rowcount


def record_sign_in(account: Account, method: str) -> None:
    """Adds the sign-in to the session (the sign-in's own commit stores it) and trims the oldest."""
    db.session.add(
        SignIn(
            account_id=account.id,
            at=utcnow(),
            address=(request.remote_addr or "")[:64],
            method=method,
            user_agent=(request.user_agent.string or "")[:255],
        )
    )
    old = (
        select(SignIn.id).where(SignIn.account_id == account.id).order_by(SignIn.at.desc(), SignIn.id.desc())
    )
    stale = list(db.session.scalars(old.offset(SIGN_INS_KEPT - 1)))
    if stale:
        db.session.execute(delete(SignIn).where(SignIn.id.in_(stale)))


def on_user_logged_in(_app, user: Account) -> None:
    """flask_login's user_logged_in: the page form, the API login and Google all sign in here."""
    if sessions.is_relogin():
        return  # a password change re-signs this browser in: not a new sign-in
    endpoint = request.endpoint or ""
    method = SignInMethod.GOOGLE if "google" in endpoint.split(".") else SignInMethod.PASSWORD
    record_sign_in(user, method)


def recent_sign_ins(account: Account) -> list[SignIn]:
    return list(
        db.session.scalars(
            select(SignIn)
            .where(SignIn.account_id == account.id)
            .order_by(SignIn.at.desc(), SignIn.id.desc())
            .limit(SIGN_INS_SHOWN)
        )
    )


# Sessions --------------------------------------------------------------------------------------


@dataclass
class ActiveSession:
    kind: str  # "browser" (a recorded page session) or "token" (an API bearer token)
    started: datetime | None
    last_used: datetime | None
    current: bool
    user_agent: str | None = None  # browsers only
    address: str | None = None
    id: int | None = None  # browsers: the page session's id, for its Sign out button
    page_session_id: int | None = None  # tokens: the browser sign-in that issued it, if any

    @property
    def name(self) -> str:
        """The browser and system, like "Chrome on Android"."""
        return browser_name(self.user_agent)


def active_sessions(account: Account) -> list[ActiveSession]:
    """The account's live sessions: its recorded page sessions (sibol/identity/sessions.py),
    last seen first, then its live API tokens, newest first."""
    raw = bearer_from_request()
    current_hash = hash_secret(raw) if raw else None
    current_row = None if raw else sessions.current_row()
    found = [
        ActiveSession(
            "browser",
            row.created_at,
            row.last_seen_at,
            current_row is not None and row.id == current_row.id,
            row.user_agent,
            row.address,
            id=row.id,
        )
        for row in sessions.listing(account)
    ]
    tokens = db.session.scalars(
        select(ApiToken)
        .where(
            ApiToken.account_id == account.id, ApiToken.revoked_at.is_(None), ApiToken.expires_at > utcnow()
        )
        .order_by(ApiToken.created_at.desc())
        .limit(50)
    )
    found += [
        ActiveSession(
            "token",
            t.created_at,
            t.last_used_at,
            t.token_hash == current_hash,
            page_session_id=t.page_session_id,
        )
        for t in tokens
    ]
    return found


def browsers_and_apps(found: list[ActiveSession]) -> tuple[list[ActiveSession], list[ActiveSession]]:
    """One row per signed-in browser (on a phone or a computer), and the app tokens no browser
    sign-in issued.
    A token issued with a browser's sign-in (the console's own islands and apps signing in with
    a password) is that browser's, and ends with it, so it is no separate row."""
    browsers = [s for s in found if s.kind == "browser"]
    with_browser = {s.id for s in browsers}
    apps = [s for s in found if s.kind == "token" and s.page_session_id not in with_browser]
    return browsers, apps


def sign_out_session(account: Account, session_id: int) -> bool:
    """One of the account's own sessions ends; True when it was the caller's own browser.
    Raises NotFound for an id that is not one of the account's sessions."""
    current_row = None if bearer_from_request() else sessions.current_row()
    was_current = current_row is not None and current_row.id == session_id
    if not sessions.end_one(account, session_id):
        db.session.rollback()
        raise NotFound(_("This session is not signed in any more."))
    db.session.commit()
    return was_current


def sign_out_everywhere(account: Account) -> tuple[int, int]:
    """Every page session and token of the account ends, the caller's too; how many of each."""
    ended = sessions.end_everything(account)
    db.session.commit()
    return ended


# Name and contact ------------------------------------------------------------------------------


def _name(errors: Errors, value: object, field: str, label: str) -> str:
    text = rules.text(errors, value, field, label, max_length=100)
    if text and not NAME_RE.match(text):
        errors.add(
            field,
            _("%(label)s may hold only letters, spaces, hyphens, apostrophes and periods.", label=label),
        )
        return ""
    return text


def update_profile(account: Account, data: dict) -> Account:
    """data: firstName, lastName, contactNumber (empty to clear). Only the fields sent change."""
    errors = Errors()
    values: dict = {}
    if "firstName" in data:
        values["first_name"] = _name(errors, data.get("firstName"), "firstName", "First name")
    if "lastName" in data:
        values["last_name"] = _name(errors, data.get("lastName"), "lastName", "Last name")
    if "contactNumber" in data:
        raw = data.get("contactNumber")
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            values["contact_number"] = None
        elif (
            not isinstance(raw, str)
            or not rules.PHONE_RE.match(raw.strip())
            or sum(c.isdigit() for c in raw) < 7
        ):
            errors.add("contactNumber", _("Contact number must be a phone number, like 0917 123 4567."))
        else:
            values["contact_number"] = " ".join(raw.split())
    errors.raise_if_any()
    for key, value in values.items():
        setattr(account, key, value)
    db.session.commit()
    return account


# E-mail change ---------------------------------------------------------------------------------


def _email_taken(email: str, account: Account) -> bool:
    with tenancy.unscoped():  # e-mails are unique over the installation, not per barangay
        other = db.session.scalar(select(Account.id).where(func.lower(Account.email) == email.lower()))
    return other is not None and other != account.id


def check_new_email(account: Account, new_email: object) -> str:
    if (
        not isinstance(new_email, str)
        or not rules.EMAIL_RE.match(new_email.strip())
        or len(new_email.strip()) > 254
    ):
        raise Invalid(_("Enter a valid e-mail address."), field="email")
    email = new_email.strip()
    if account.email and email.lower() == account.email.lower():
        raise Invalid(_("This is already your e-mail address."), field="email")
    if _email_taken(email, account):
        raise Conflict(_("Another account uses this e-mail address."), field="email")
    return email


def request_email_change(account: Account, new_email: object) -> str:
    """Sends a link to the new address; the e-mail changes when it is opened. Returns the address."""
    email = check_new_email(account, new_email)
    now = utcnow()
    db.session.execute(
        update(EmailChange)
        .where(EmailChange.account_id == account.id, EmailChange.used_at.is_(None))
        .values(used_at=now)
    )
    raw = secrets.token_urlsafe(32)
    db.session.add(
        EmailChange(
            account_id=account.id,
            new_email=email,
            token_hash=hash_secret(raw),
            created_at=now,
            expires_at=now + EMAIL_CHANGE_LIFETIME,
        )
    )
    db.session.commit()
    link = f"{current_app.config['SIBOL_BASE_URL']}/profile/email/confirm?token={raw}"
    emails.send_email(
        email, _l("Confirm your new e-mail address"), "profile_email_change", account=account, link=link
    )
    return email


def pending_email(account: Account) -> str | None:
    return db.session.scalar(
        select(EmailChange.new_email)
        .where(
            EmailChange.account_id == account.id,
            EmailChange.used_at.is_(None),
            EmailChange.expires_at > utcnow(),
        )
        .order_by(EmailChange.id.desc())
        .limit(1)
    )


def confirm_email_change(raw: object) -> Account:
    """Opens the link: the account's e-mail becomes the new address (once)."""
    if not isinstance(raw, str) or not raw or len(raw) > 200:
        raise Invalid(_("This link is not valid."), field="token")
    change = db.session.scalar(select(EmailChange).where(EmailChange.token_hash == hash_secret(raw)))
    if change is None or change.used_at is not None or change.expires_at <= utcnow():
        raise Invalid(
            _("This link has expired or was already used. Ask for a new one from your profile."),
            field="token",
        )
    account = db.session.get(Account, change.account_id)
    if account is None:  # pragma: no cover - the foreign key cascades
        raise Invalid(_("This link is not valid."), field="token")
    if _email_taken(change.new_email, account):
        raise Conflict(_("Another account uses this e-mail address now."), field="email")
    done = _rows_changed(
        update(EmailChange)
        .where(EmailChange.id == change.id, EmailChange.used_at.is_(None))
        .values(used_at=utcnow())
    )
    if done != 1:
        db.session.rollback()
        raise Invalid(_("This link was already used."), field="token")
    account.email = change.new_email
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(_("Another account uses this e-mail address now."), field="email") from None
    return account


# Password --------------------------------------------------------------------------------------


def change_password(account: Account, current: object, new: object) -> None:
    """Needs the current password; every other session and token of the account ends at once,
    this browser (or this token) stays signed in.

    The current password is checked like a sign-in (sibol/identity/lockout.py): counted before it
    is compared, from this address and for the account, so a stolen session cannot guess it
    faster than the sign-in form could; past the limit the answer is 429."""
    errors = Errors()
    if not isinstance(current, str) or not current:
        errors.add("currentPassword", _("Type your current password."))
    else:
        _check_current(account, current, errors)
    if not isinstance(new, str) or not meets_password_rule(new):
        errors.add("newPassword", _(PASSWORD_RULE_MESSAGE))
    elif isinstance(current, str) and new == current:
        errors.add("newPassword", _("Choose a password different from the current one."))
    errors.raise_if_any()
    account.password_hash = hash_password(str(new))
    account.password_expires_at = None  # its own password now, should it have had a temporary one
    sessions.end_others(account)
    db.session.commit()
    sessions.keep_signed_in(account)


def _check_current(account: Account, current: str, errors: Errors) -> None:
    """Compare the current password, counted with the account's sign-in checks (commits the
    count). A wrong one is a field error, or Locked / Throttled (429) past the limit."""
    account = getattr(account, "_get_current_object", lambda: account)()
    try:
        attempt = lockout.begin(account, account.username)
    except lockout.Refused as refused:
        refused.field = "currentPassword"
        raise
    if not verify_password(account.password_hash, current):
        try:
            count_wrong_password(attempt)
        except lockout.Locked as locked:
            locked.field = "currentPassword"
            raise
        errors.add("currentPassword", _("Your current password is not right."))
        return
    attempt.succeeded()
    db.session.commit()
