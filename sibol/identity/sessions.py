"""Page sessions recorded on the server, so that signing out ends them for every copy of the cookie.

The signed Flask session cookie carries a random id (SESSION_KEY); the table keeps only its
SHA-256. The user loader accepts a cookie only while its row exists: sign-out deletes the row,
and disabling, a password reset or change, or "sign out everywhere" delete all of an account's rows
(and revoke its bearer tokens).
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any, cast

from flask import g, request, session
from flask_login import login_user
from sqlalchemy import CursorResult, delete, select, update

from ..extensions import db
from ..models import Account, ApiToken, utcnow
from ..models.auth import PageSession
from .tokens import bearer_from_request, hash_secret, revoke_all_tokens

SESSION_KEY = "sibol_sid"
TOUCH_EVERY = timedelta(minutes=5)  # how stale last_seen_at may get before a write refreshes it
IDLE_LIMIT = timedelta(days=14)  # a session unused this long has ended


def open_session(account: Account) -> tuple[str, PageSession]:
    """Record a new page session (flushed, the caller commits); its secret and its row."""
    raw = secrets.token_urlsafe(32)
    row = PageSession(
        account_id=account.id,
        token_hash=hash_secret(raw),
        user_agent=(request.user_agent.string or "")[:200] if request else "",
        address=(request.remote_addr or "")[:64] if request else "",
    )
    db.session.add(row)
    db.session.flush()
    return raw, row


def begin(account: Account) -> PageSession:
    """Sign-in: a new recorded session whose secret goes into the signed cookie. Sessions of any
    account idle past IDLE_LIMIT are deleted on the way (the caller commits)."""
    db.session.execute(delete(PageSession).where(PageSession.last_seen_at < utcnow() - IDLE_LIMIT))
    session[SESSION_KEY], row = open_session(account)
    return row


def current_row() -> PageSession | None:
    raw = session.get(SESSION_KEY)
    if not isinstance(raw, str) or not 0 < len(raw) <= 100:
        return None
    return db.session.scalar(select(PageSession).where(PageSession.token_hash == hash_secret(raw)))


def is_live_for(account: Account) -> bool:
    """The cookie's session is recorded and belongs to the account (checked on every request)."""
    row = current_row()
    if row is None or row.account_id != account.id:
        return False
    now = utcnow()
    if row.last_seen_at < now - IDLE_LIMIT:
        return False
    if row.last_seen_at < now - TOUCH_EVERY:
        db.session.execute(update(PageSession).where(PageSession.id == row.id).values(last_seen_at=now))
        db.session.commit()
    return True


def end_current() -> None:
    """Sign-out: the cookie's session ends everywhere it was copied (the caller commits)."""
    row = current_row()
    if row is not None:
        db.session.delete(row)
    session.pop(SESSION_KEY, None)


def end_for_token(raw_token: str) -> None:
    """Sign-out with a bearer token alone: the page session the same sign-in opened ends too,
    while the token is live (the caller commits; the caller revokes the token)."""
    opened_with = (
        select(ApiToken.page_session_id)
        .where(ApiToken.token_hash == hash_secret(raw_token), ApiToken.revoked_at.is_(None))
        .scalar_subquery()
    )
    db.session.execute(
        delete(PageSession).where(PageSession.id == opened_with),
        execution_options={"synchronize_session": False},
    )


def end_all(account_id: int) -> int:
    """End every page session of an account (the caller commits); how many there were."""
    result = cast(
        "CursorResult[Any]",
        db.session.execute(delete(PageSession).where(PageSession.account_id == account_id)),
    )
    return result.rowcount or 0


def end_everything(account: Account) -> tuple[int, int]:
    """Every page session and bearer token of the account ends (the caller commits)."""
    account.session_epoch = (account.session_epoch or 0) + 1
    return end_all(account.id), revoke_all_tokens(account.id)


def end_others(account: Account) -> None:
    """Every page session and bearer token of the account ends but the caller's own (the caller
    commits). The account's epoch moves on, so a browser caller must keep_signed_in() after the
    commit (its cookie carries the old epoch)."""
    account.session_epoch = (account.session_epoch or 0) + 1
    raw = bearer_from_request()
    keep_row = None if raw else current_row()
    pages = delete(PageSession).where(PageSession.account_id == account.id)
    if keep_row is not None:
        pages = pages.where(PageSession.id != keep_row.id)
    db.session.execute(pages)
    conditions = [ApiToken.account_id == account.id, ApiToken.revoked_at.is_(None)]
    if raw:
        conditions.append(ApiToken.token_hash != hash_secret(raw))
    db.session.execute(update(ApiToken).where(*conditions).values(revoked_at=utcnow()))


def end_one(account: Account, session_id: int) -> bool:
    """One of the account's own page sessions ends, with the bearer tokens its sign-in issued
    (the caller commits). False when the account has no such session (another account's id too).
    The tokens go first: deleting the session sets their link to it to NULL."""
    db.session.execute(
        update(ApiToken)
        .where(
            ApiToken.page_session_id == session_id,
            ApiToken.account_id == account.id,
            ApiToken.revoked_at.is_(None),
        )
        .values(revoked_at=utcnow())
    )
    result = cast(
        "CursorResult[Any]",
        db.session.execute(
            delete(PageSession).where(PageSession.id == session_id, PageSession.account_id == account.id)
        ),
    )
    return bool(result.rowcount)


def keep_signed_in(account: Account) -> None:
    """After end_others(): this browser's cookie takes the account's new epoch. It is no new
    sign-in (is_relogin() says so to whoever listens to Flask-Login's user_logged_in)."""
    if bearer_from_request() is not None:
        return
    g.sibol_relogin = True
    # The account itself, not the current_user proxy: Flask-Login stores what it is given as the
    # request's user, and a proxy to itself would recurse on the next current_user.
    login_user(getattr(account, "_get_current_object", lambda: account)())


def is_relogin() -> bool:
    return bool(g.get("sibol_relogin"))


def listing(account: Account) -> list[PageSession]:
    return list(
        db.session.scalars(
            select(PageSession)
            .where(PageSession.account_id == account.id)
            .order_by(PageSession.last_seen_at.desc(), PageSession.id.desc())
        )
    )
