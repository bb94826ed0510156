"""Brute-force protection for every password check (sign-in, and the current password a password
change asks for), kept in the database so every process counts together.

Each check is counted before the password is compared, by a conditional UPDATE, so simultaneous
guesses cannot slip past a limit together; a right password then gives its count back, so only
wrong ones stay counted. Two counts stand guard (docs/auth.md says why):

- Per login name and client address (an IPv6 address by its /64): MAX_FAILURES wrong passwords
  within WINDOW lock that name for that address only, for LOCK_BASE, doubling with each further
  lock up to LOCK_MAX (one hour). The owner elsewhere is not locked out, and one address cannot
  lock everyone's accounts. At most MAX_FAILURES checks are compared at once (`in_flight` counts
  those still comparing): a further one waits (up to IN_FLIGHT) for them to finish, and the lock
  starts only when MAX_FAILURES finished checks were wrong, so any number of simultaneous right
  passwords never locks the account.
- Per login name from every address (the flood meter): past FLOOD_FREE failures, each further
  check must wait a delay that doubles with each failure, up to FLOOD_DELAY_MAX. Many addresses
  together therefore still get only a few guesses an hour. Addresses the account signed in from
  (for TRUST_FOR) do not wait: the owner on their usual network is not slowed. A check refused
  while other checks are still being compared (`in_flight`) waits for them too, up to IN_FLIGHT
  (a right one gives its count back), so simultaneous right passwords are not slowed either.

A correct password clears its address's count and marks the address as the account's. A
completed password reset or set-password link (`lift`) ends every lock and the flood count, and
trusts the address it was completed from; an admin can `unlock` too. When a lock or the slowing
starts, `failed` hands back a Notice for the owner (at most one an hour), which the caller mails
(sibol/auth/service.py, `count_wrong_password`). An unknown name is counted and refused the same
way, so the answers reveal nothing about which names exist.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import has_request_context, request
from flask_babel import gettext as _
from flask_babel import ngettext

from ..errors import ServiceError
from ..extensions import db
from ..models import Account, utcnow
from ..models.auth import LoginFailures
from . import lockout_store as store

MAX_FAILURES = 5
WINDOW = timedelta(minutes=15)
LOCK_BASE = timedelta(minutes=15)
LOCK_MAX = timedelta(hours=1)
FLOOD_FREE = 10
FLOOD_DELAY_BASE = timedelta(seconds=15)
FLOOD_DELAY_MAX = timedelta(minutes=15)
FLOOD_WINDOW = timedelta(days=1)  # the flood count is forgotten after a day without failures
TRUST_FOR = timedelta(days=30)
NOTIFY_EVERY = LOCK_MAX
# How long a check counted in advance may still be comparing its password (argon2id takes about
# 50 ms; many at once on a busy machine, a few seconds): a check refused only because of such
# checks waits this long for them, polling every IN_FLIGHT_POLL seconds.
IN_FLIGHT = timedelta(seconds=5)
IN_FLIGHT_POLL = 0.05


class Refused(ServiceError):
    """429 with Retry-After: a password check refused before the password was compared."""

    status = 429

    def __init__(self, message: str, until: datetime):
        seconds = max(1, math.ceil((until - utcnow()).total_seconds()))
        super().__init__(message, retryAfter=seconds, lockedUntil=until.isoformat(timespec="seconds") + "Z")
        self.retry_after = seconds


class Locked(Refused):
    """Too many wrong passwords for this login from this address."""

    error = "locked"

    def __init__(self, until: datetime):
        minutes = math.ceil(max(1, (until - utcnow()).total_seconds()) / 60)
        super().__init__(
            ngettext(
                "Too many failed sign-in attempts for this account. Try again in %(num)s minute.",
                "Too many failed sign-in attempts for this account. Try again in %(num)s minutes.",
                minutes,
            ),
            until,
        )


class Throttled(Refused):
    """Too many wrong passwords for this login from many addresses: checks are spaced out."""

    error = "throttled"

    def __init__(self, until: datetime):
        seconds = max(1, math.ceil((until - utcnow()).total_seconds()))
        if seconds < 90:
            wait = ngettext("Try again in %(num)s second.", "Try again in %(num)s seconds.", seconds)
        else:
            wait = ngettext(
                "Try again in %(num)s minute.", "Try again in %(num)s minutes.", math.ceil(seconds / 60)
            )
        super().__init__(
            _("Many wrong passwords were typed for this account, so sign-in is slowed down.") + " " + wait,
            until,
        )


def key_for(account: Account | None, login: str) -> str:
    """The login's own key: the account's (its username and e-mail count together), or a digest
    of an unknown name."""
    if account is not None:
        return f"account:{account.id}"
    digest = hashlib.sha256((login or "").strip().lower().encode("utf-8", "surrogatepass")).hexdigest()
    return f"name:{digest[:40]}"


def source_address() -> str:
    """The client's address as counted: IPv4 as is, IPv6 by its /64 (one subscriber's block)."""
    raw = request.remote_addr if has_request_context() else None
    try:
        address = ipaddress.ip_address(raw or "")
    except ValueError:
        return "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def source_key(key: str, address: str) -> str:
    return f"{key}@{hashlib.sha256(address.encode()).hexdigest()[:32]}"


def lock_length(lock_count: int) -> timedelta:
    return min(LOCK_BASE * 2 ** max(0, lock_count - 1), LOCK_MAX)


def flood_delay(failures: int) -> timedelta:
    """How long after the last failure the next check may run, for this many failures."""
    if failures < FLOOD_FREE:
        return timedelta(0)
    return min(FLOOD_DELAY_BASE * 2 ** min(failures - FLOOD_FREE, 30), FLOOD_DELAY_MAX)


@dataclass
class Attempt:
    """One password check, counted in advance by `begin`; the caller reports how it went."""

    key: str
    source_key: str
    address: str
    account: Account | None
    flood_started: bool  # this check brought the account's count to where slowing starts
    lock_started: datetime | None = None  # set by `failed` when this check began the lock

    def succeeded(self) -> None:
        """The right password: its address's count and lock end and the address counts as the
        account's; the flood count gives back this check (the caller commits)."""
        now = utcnow()
        store.landed(self.source_key)
        store.succeed(self.source_key, now, now + TRUST_FOR)
        store.give_back(self.key)
        store.landed(self.key)

    def release(self) -> None:
        """Nothing was compared (an account with no password yet): the check is given back; commits."""
        for key in (self.source_key, self.key):
            store.give_back(key)
            store.landed(key)
        db.session.commit()

    def failed(self) -> Notice | None:
        """A wrong password (already counted). When the address's wrong passwords reach the limit,
        this one starts the lock (one caller does, by a conditional UPDATE). Commits. Returns what
        the owner must hear when a lock or the slowing starts (once an hour at most), else None;
        the caller mails it, then calls `raise_if_locked`."""
        now = utcnow()
        store.landed(self.source_key)
        store.landed(self.key)
        row = store.current(self.source_key)
        if row is not None and row.failures - row.in_flight >= MAX_FAILURES:
            until = now + lock_length(row.lock_count + 1)
            if store.start_lock(self.source_key, now, until, MAX_FAILURES):
                self.lock_started = until
        owner = self.account
        started = self.lock_started is not None or self.flood_started
        tell = owner is not None and started and store.claim_notice(self.key, now, NOTIFY_EVERY)
        if secrets.randbelow(50) == 0:
            store.prune(now)
        db.session.commit()
        if tell and owner is not None:
            return Notice(owner, self.lock_started, self.address)
        return None

    def raise_if_locked(self) -> None:
        """Raises Locked when this check began the lock of its address."""
        if self.lock_started is not None:
            raise Locked(self.lock_started)


class _InFlight(Exception):
    """Refused only because checks counted moments ago are still being compared: wait for them."""


@dataclass(frozen=True)
class Notice:
    """What the owner is told: which address was locked out and until when (None: sign-in is
    slowed instead), and that a completed password reset lifts it."""

    account: Account
    locked_until: datetime | None
    address: str

    @property
    def minutes(self) -> int | None:
        if self.locked_until is None:
            return None
        return math.ceil((self.locked_until - utcnow()).total_seconds() / 60)


def begin(account: Account | None, login: str) -> Attempt:
    """Count a password check for the login from this address before the password is compared;
    commits. Raises Locked while the address is locked for this login, and Throttled while the
    flood count asks this address to wait. A check refused only because others are still being
    compared waits for them (up to IN_FLIGHT). Nothing else may be pending in the session."""
    deadline = time.monotonic() + IN_FLIGHT.total_seconds()
    while True:
        try:
            return _count(account, login, may_wait=time.monotonic() < deadline)
        except _InFlight:
            time.sleep(IN_FLIGHT_POLL)


def _count(account: Account | None, login: str, *, may_wait: bool) -> Attempt:
    """One try of `begin`: raises _InFlight (when `may_wait`) instead of a refusal
    that checks still being compared may lift."""
    now = utcnow()
    key = key_for(account, login)
    address = source_address()
    here = source_key(key, address)
    account_id = account.id if account is not None else None
    store.ensure(here, account_id, now)
    store.ensure(key, account_id, now)
    if not store.count_check(here, now, WINDOW, MAX_FAILURES):
        db.session.rollback()
        row = store.current(here)
        if row is not None and row.locked_until is not None and row.locked_until > now:
            raise Locked(row.locked_until)
        if row is not None and row.in_flight == 0:
            # Wrong passwords only, whose last check did not get to start the lock (its process died).
            until = now + lock_length(row.lock_count + 1)
            store.start_lock(here, now, until, MAX_FAILURES)
            db.session.commit()
            raise Locked(until)
        if may_wait:
            raise _InFlight
        # Still comparing after IN_FLIGHT (a very busy machine, or a process that died while
        # comparing, whose count ends with the window): try again shortly; never a lock.
        raise Throttled(now + IN_FLIGHT)
    row = store.current(here)
    trusted = row is not None and row.trusted_until is not None and row.trusted_until > now
    # The latest last-failure time that lets a check through, for each count where slowing
    # grows (up to where it stays at FLOOD_DELAY_MAX); an address the account uses never waits.
    latest = None if trusted else {n: now - flood_delay(n) for n in range(FLOOD_FREE, FLOOD_FREE + 12)}
    if not store.count_flood(key, now, latest, now - FLOOD_WINDOW):
        db.session.rollback()
        meter = store.current(key)
        if meter is None or meter.last_failure_at is None:  # pragma: no cover - counted above
            raise Throttled(now + FLOOD_DELAY_BASE)
        if may_wait and meter.in_flight > 0:
            raise _InFlight  # checks still being compared: right ones give their count back
        raise Throttled(meter.last_failure_at + flood_delay(meter.failures))
    meter = store.current(key)
    flood_started = meter is not None and meter.failures == FLOOD_FREE
    db.session.commit()
    return Attempt(key, here, address, account, flood_started)


def lift(account: Account) -> None:
    """A completed password reset or set-password link: the owner is back. Every lock and the
    flood count end, and the address it was done from counts as the account's (the caller commits)."""
    store.clear(account.id)
    now = utcnow()
    store.trust(source_key(key_for(account, ""), source_address()), account.id, now, now + TRUST_FOR)


def unlock(account_id: int) -> bool:
    """An admin lifts an account's locks and counts (the caller commits). True when it was locked."""
    return store.clear(account_id) > 0


def locked_accounts() -> list[LoginFailures]:
    """Accounts locked now from some address, soonest to unlock first (for /admin)."""
    return store.locked_now()
