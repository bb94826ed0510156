"""The statements of sibol/identity/lockout.py on its table, login_failures.

Each count is one conditional UPDATE: on MariaDB it locks the row, on SQLite it takes the
database's write lock, so simultaneous password checks from every process are each counted and
each sees the others' counts. The policy (how many, how long) is lockout.py's.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, Executable, case, delete, func, or_, select, update
from sqlalchemy.dialects.mysql import insert as mysql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ..extensions import db
from ..models import utcnow
from ..models.auth import LoginFailures

Row = LoginFailures


def matched(statement: Executable) -> int:
    """Run an UPDATE or DELETE; how many rows it matched."""
    result = cast(
        "CursorResult[Any]",
        db.session.execute(statement, execution_options={"synchronize_session": False}),
    )
    return result.rowcount or 0


def ensure(key: str, account_id: int | None, now: datetime) -> None:
    """Insert the row when it is missing, in one statement that simultaneous callers may all run."""
    values = {
        "key": key,
        "account_id": account_id,
        "failures": 0,
        "window_start": now,
        "lock_count": 0,
        "in_flight": 0,
    }
    stmt: Executable
    if db.session.get_bind().dialect.name == "sqlite":
        stmt = sqlite_insert(Row).values(**values).on_conflict_do_nothing(index_elements=["key"])
    else:
        stmt = mysql_insert(Row).values(**values).on_duplicate_key_update({"lock_count": Row.lock_count})
    db.session.execute(stmt)


def current(key: str) -> Row | None:
    """The row as stored now (not a copy the session held from before)."""
    return db.session.scalar(select(Row).where(Row.key == key).execution_options(populate_existing=True))


def count_check(key: str, now: datetime, window: timedelta, limit: int) -> bool:
    """Count one check for an address unless it is locked or already holds `limit` checks (wrong
    ones, and ones still being compared: `in_flight`); True when counted. A count older than the
    window starts again at one."""
    fresh = Row.window_start > now - window
    return bool(
        matched(
            update(Row)
            .where(
                Row.key == key,
                or_(Row.locked_until.is_(None), Row.locked_until <= now),
                or_(~fresh, Row.failures < limit),
            )
            # MySQL assigns left to right, each seeing the ones before: window_start goes second.
            .ordered_values(
                (Row.failures, case((fresh, Row.failures + 1), else_=1)),
                (Row.in_flight, case((fresh, Row.in_flight + 1), else_=1)),
                (Row.window_start, case((fresh, Row.window_start), else_=now)),
                (Row.last_failure_at, now),
            )
        )
    )


def start_lock(key: str, now: datetime, until: datetime, limit: int) -> bool:
    """The address's wrong passwords (its count less the checks still in flight) reached `limit`
    and it is not locked yet: it is locked until `until`, counting afresh after. True for the one
    caller that started the lock."""
    return bool(
        matched(
            update(Row)
            .where(
                Row.key == key,
                Row.failures - Row.in_flight >= limit,
                or_(Row.locked_until.is_(None), Row.locked_until <= now),
            )
            .values(locked_until=until, lock_count=Row.lock_count + 1, failures=0, window_start=now)
        )
    )


def count_flood(key: str, now: datetime, latest: dict[int, datetime] | None, forget_before: datetime) -> bool:
    """Count one check in the login's flood meter; True when counted. With `latest` ({count: the
    latest last-failure time that lets a check through}, any higher count using the smallest), a
    check that came too soon after the last failure is not counted and must wait."""
    fresh = Row.last_failure_at > forget_before
    conditions: list[Any] = [Row.key == key]
    if latest is not None:
        conditions.append(
            or_(
                Row.last_failure_at.is_(None),
                Row.last_failure_at <= forget_before,
                Row.failures < min(latest),
                Row.last_failure_at <= case(latest, value=Row.failures, else_=min(latest.values())),
            )
        )
    return bool(
        matched(
            update(Row)
            .where(*conditions)
            .ordered_values(
                (Row.failures, case((fresh, Row.failures + 1), else_=1)),
                (Row.last_failure_at, now),
                (Row.in_flight, Row.in_flight + 1),
            )
        )
    )


def give_back(key: str) -> None:
    """Take one check off the count (it turned out right, or compared nothing)."""
    matched(update(Row).where(Row.key == key, Row.failures > 0).values(failures=Row.failures - 1))


def landed(key: str) -> None:
    """A counted check has been compared (or gave up): it is no longer in flight."""
    matched(update(Row).where(Row.key == key, Row.in_flight > 0).values(in_flight=Row.in_flight - 1))


def succeed(key: str, now: datetime, trusted_until: datetime) -> None:
    """The right password from an address: its count and lock end, and it is trusted."""
    matched(
        update(Row)
        .where(Row.key == key)
        .values(failures=0, window_start=now, locked_until=None, lock_count=0, trusted_until=trusted_until)
    )


def trust(key: str, account_id: int, now: datetime, until: datetime) -> None:
    ensure(key, account_id, now)
    matched(update(Row).where(Row.key == key).values(trusted_until=until))


def claim_notice(key: str, now: datetime, every: timedelta) -> bool:
    """True for exactly one caller in `every`: the one that may e-mail the owner."""
    return bool(
        matched(
            update(Row)
            .where(Row.key == key, or_(Row.notified_at.is_(None), Row.notified_at <= now - every))
            .values(notified_at=now)
        )
    )


def prune(now: datetime) -> None:
    """Forget counts nobody has added to for a day, locks over for a day and trust that ran out
    (mostly unknown names an attacker tried), so the table does not grow without end."""
    day_ago = now - timedelta(days=1)
    matched(
        delete(Row).where(
            func.coalesce(Row.last_failure_at, Row.window_start) < day_ago,
            Row.window_start < day_ago,
            or_(Row.locked_until.is_(None), Row.locked_until < day_ago),
            or_(Row.trusted_until.is_(None), Row.trusted_until < now),
        )
    )


def clear(account_id: int) -> int:
    """End every lock and count of the account, keeping the addresses it is trusted from; how
    many of its addresses were locked (the caller commits)."""
    now = utcnow()
    locked = db.session.scalar(
        select(func.count()).select_from(Row).where(Row.account_id == account_id, Row.locked_until > now)
    )
    matched(
        update(Row)
        .where(Row.account_id == account_id)
        .values(
            failures=0,
            window_start=now,
            locked_until=None,
            lock_count=0,
            last_failure_at=None,
            notified_at=None,
        )
    )
    return locked or 0


def locked_now() -> list[Row]:
    """Each account locked now from some address, with the address row whose lock lasts longest;
    soonest to unlock first."""
    rows = db.session.scalars(
        select(Row)
        .where(Row.account_id.is_not(None), Row.locked_until > utcnow())
        .order_by(Row.locked_until.desc())
    )
    latest: dict[int, Row] = {}
    for row in rows:
        latest.setdefault(cast(int, row.account_id), row)
    return sorted(latest.values(), key=lambda row: cast(datetime, row.locked_until))
