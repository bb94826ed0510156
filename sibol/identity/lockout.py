"""Brute-force protection per account, in the database so every process counts together.

After MAX_FAILURES wrong passwords for one login within WINDOW, it is locked for LOCK_BASE,
doubling with each further lock (at most LOCK_MAX); a correct password while locked is refused
too. Page and API sign-in go through the same counter. An unknown name is counted and locked the
same way, so the answer reveals nothing about which names exist.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, Executable, case, delete, select
from sqlalchemy.dialects.mysql import insert as mysql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ..errors import ServiceError
from ..extensions import db
from ..models import Account, utcnow
from ..models.auth import LoginFailures

MAX_FAILURES = 5
WINDOW = timedelta(minutes=15)
LOCK_BASE = timedelta(minutes=15)
LOCK_MAX = timedelta(hours=24)


class Locked(ServiceError):
    """429 with Retry-After: too many wrong passwords for this login."""

    status, error = 429, "locked"

    def __init__(self, until: datetime):
        seconds = max(1, math.ceil((until - utcnow()).total_seconds()))
        minutes = math.ceil(seconds / 60)
        super().__init__(
            "Too many failed sign-in attempts for this account. "
            f"Try again in {minutes} minute{'s' if minutes != 1 else ''}.",
            retryAfter=seconds,
            lockedUntil=until.isoformat(timespec="seconds") + "Z",
        )
        self.retry_after = seconds


def key_for(account: Account | None, login: str) -> str:
    if account is not None:
        return f"account:{account.id}"
    digest = hashlib.sha256((login or "").strip().lower().encode("utf-8", "surrogatepass")).hexdigest()
    return f"name:{digest[:64]}"


def _row(key: str) -> LoginFailures | None:
    return db.session.scalar(select(LoginFailures).where(LoginFailures.key == key))


def check(key: str) -> None:
    """Raise Locked while the login is locked."""
    row = _row(key)
    if row is not None and row.locked_until is not None and row.locked_until > utcnow():
        raise Locked(row.locked_until)


def _count_one(key: str, account_id: int | None, now: datetime) -> None:
    """One upsert statement: simultaneous failures are all counted, and the row stays
    write-locked until the commit, so the lock decision sees every one of them."""
    fresh = LoginFailures.window_start > now - WINDOW
    values = {"key": key, "account_id": account_id, "failures": 1, "window_start": now, "lock_count": 0}
    stmt: Executable
    if db.session.get_bind().dialect.name == "sqlite":
        stmt = (
            sqlite_insert(LoginFailures)
            .values(**values)
            .on_conflict_do_update(
                index_elements=[LoginFailures.key],
                set_={
                    "failures": case((fresh, LoginFailures.failures + 1), else_=1),
                    "window_start": case((fresh, LoginFailures.window_start), else_=now),
                },
            )
        )
    else:
        # MySQL applies the assignments left to right: window_start is still the old one for
        # the failures expression, so it is set second.
        stmt = (
            mysql_insert(LoginFailures)
            .values(**values)
            .on_duplicate_key_update(
                failures=case((fresh, LoginFailures.failures + 1), else_=1),
                window_start=case((fresh, LoginFailures.window_start), else_=now),
            )
        )
    db.session.execute(stmt)


def record_failure(key: str, account_id: int | None) -> None:
    """Count one wrong password (atomic across processes) and lock at the limit; commits.
    Raises Locked when this failure locked the login."""
    now = utcnow()
    _count_one(key, account_id, now)
    db.session.expire_all()
    row = _row(key)
    until = None
    if row is not None and row.locked_until is not None and row.locked_until > now:
        # Checked before the lock began, answered after: refused like any attempt while locked.
        until = row.locked_until
    elif row is not None and row.failures >= MAX_FAILURES:
        row.lock_count += 1
        until = now + min(LOCK_BASE * 2 ** (row.lock_count - 1), LOCK_MAX)
        row.locked_until, row.failures, row.window_start = until, 0, now
    if until is None and secrets.randbelow(50) == 0:
        _prune(now)
    db.session.commit()
    if until is not None:
        raise Locked(until)


def _prune(now: datetime) -> None:
    """Forget counts nobody has added to for a day and locks over for a day (mostly unknown
    names an attacker tried), so the table does not grow without end."""
    day = timedelta(days=1)
    db.session.execute(
        delete(LoginFailures).where(
            LoginFailures.window_start < now - day,
            (LoginFailures.locked_until.is_(None)) | (LoginFailures.locked_until < now - day),
        )
    )


def record_success(key: str) -> None:
    """A correct password ends the count and the doubling (the caller commits)."""
    db.session.execute(delete(LoginFailures).where(LoginFailures.key == key))


def locked_accounts() -> list[LoginFailures]:
    """Accounts locked now, soonest to unlock first (for /admin)."""
    return list(
        db.session.scalars(
            select(LoginFailures)
            .where(LoginFailures.account_id.is_not(None), LoginFailures.locked_until > utcnow())
            .order_by(LoginFailures.locked_until)
        )
    )


def unlock(account_id: int) -> bool:
    """Lift an account's lock and forget its failures (the caller commits). True when it was locked."""
    result = cast(
        "CursorResult[Any]",
        db.session.execute(delete(LoginFailures).where(LoginFailures.account_id == account_id)),
    )
    return bool(result.rowcount)
