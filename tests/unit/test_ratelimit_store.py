"""The SQLite store for rate limits that every worker process of one server shares."""

from __future__ import annotations

from multiprocessing import get_context

from limits import RateLimitItemPerMinute
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

import sibol.identity.ratelimits  # noqa: F401 - registers sibol-sqlite:// (also in spawned processes)


def test_moving_window_counts_and_refuses_past_the_limit(tmp_path):
    store = storage_from_string(f"sibol-sqlite://{tmp_path / 'limits.sqlite3'}")
    limiter = MovingWindowRateLimiter(store)
    limit = RateLimitItemPerMinute(3)
    assert [limiter.hit(limit, "a") for _ in range(4)] == [True, True, True, False]
    assert limiter.hit(limit, "b")  # another key counts alone
    stats = limiter.get_window_stats(limit, "a")
    assert stats.remaining == 0 and stats.reset_time > 0
    store.clear(limit.key_for("a"))
    assert limiter.hit(limit, "a")
    assert store.check()


def test_fixed_window_counters(tmp_path):
    store = storage_from_string(f"sibol-sqlite://{tmp_path / 'limits.sqlite3'}")
    limiter = FixedWindowRateLimiter(store)
    limit = RateLimitItemPerMinute(2)
    assert [limiter.hit(limit, "x") for _ in range(3)] == [True, True, False]
    assert store.get(limit.key_for("x")) == 3
    assert store.get_expiry(limit.key_for("x")) > 0
    assert store.reset() >= 1 and store.get(limit.key_for("x")) == 0


def _hits(path: str, n: int) -> int:
    store = storage_from_string(f"sibol-sqlite://{path}")
    limiter = MovingWindowRateLimiter(store)
    return sum(limiter.hit(RateLimitItemPerMinute(25), "shared") for _ in range(n))


def test_processes_share_one_count(tmp_path):
    path = str(tmp_path / "limits.sqlite3")
    with get_context("spawn").Pool(4) as pool:
        allowed = sum(pool.starmap(_hits, [(path, 20)] * 4))
    assert allowed == 25  # 80 tries from four processes, 25 allowed in all
