"""The device request limit: SIBOL_TELEMETRY_RATE_LIMIT per device, one count for everything a
device sends, whichever HTTP route or MQTT topic it uses.

A device is named by who(): "device:<machine id>" for a key that names a machine (however the
header spells it), else a digest of the unknown key. Every count lives in the app's shared limit
store (RATELIMIT_STORAGE_URI: the SQLite file every process of a console shares, or Redis), so the
gunicorn workers and the MQTT subscriber's writers count together.
"""

from __future__ import annotations

import time

from flask import current_app
from limits import RateLimitItem, parse

from ..extensions import limiter
from .ratelimits import SqliteStorage

NAMESPACE = "device-requests"
_parsed: dict[str, RateLimitItem] = {}


def enabled() -> bool:
    return bool(limiter.enabled and current_app.config.get("RATELIMIT_ENABLED", True))


def _item() -> RateLimitItem:
    spec = current_app.config["SIBOL_TELEMETRY_RATE_LIMIT"]
    item = _parsed.get(spec)
    if item is None:
        item = _parsed[spec] = parse(spec)
    return item


def _ids(who: str) -> tuple[str, ...]:
    return (current_app.config.get("RATELIMIT_KEY_PREFIX") or "", NAMESPACE, who)


def hit(who: str) -> int | None:
    """Count one request of `who`: None when it is within the limit, else the seconds until it
    would be (for Retry-After)."""
    if not enabled():
        return None
    item = _item()
    if limiter.limiter.hit(item, *_ids(who)):
        return None
    reset_at, _remaining = limiter.limiter.get_window_stats(item, *_ids(who))
    return max(1, int(reset_at - time.time()))


def take(wanted: dict[str, int]) -> dict[str, int]:
    """Count up to wanted[who] messages of each device at once; returns how many of each are
    within the limit (the first that many are taken, the rest are refused). The console's SQLite
    store does the whole batch in one transaction; another store, two calls per device."""
    if not enabled():
        return dict(wanted)
    item = _item()
    storage = limiter.limiter.storage
    if isinstance(storage, SqliteStorage):
        keys = {who: item.key_for(*_ids(who)) for who in wanted}
        got = storage.acquire_many({keys[w]: n for w, n in wanted.items()}, item.amount, item.get_expiry())
        return {who: got[keys[who]] for who in wanted}
    out = {}
    for who, n in wanted.items():
        _reset, remaining = limiter.limiter.get_window_stats(item, *_ids(who))
        allowed = min(n, remaining)
        while allowed > 0 and not limiter.limiter.hit(item, *_ids(who), cost=allowed):
            allowed -= 1  # another process took some meanwhile: take what is left
        out[who] = max(allowed, 0)
    return out
