"""A `limits` storage in one SQLite file, so every worker process of one server counts together.

`memory://` keeps counters per process: with two gunicorn workers each address got twice its
limit. Redis (RATELIMIT_STORAGE_URI=redis://...) is the choice for several machines; this store
is the default for one machine and needs nothing installed. Scheme: sibol-sqlite:///<path>.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

from limits.storage import MovingWindowSupport, Storage

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL,"
    " expires_at REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS events (key TEXT NOT NULL, at REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS ix_events_key_at ON events (key, at)",
)


class SqliteStorage(Storage, MovingWindowSupport):
    STORAGE_SCHEME = ["sibol-sqlite"]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **_: object) -> None:
        self.path = uri.removeprefix("sibol-sqlite://")  # sibol-sqlite:///abs/path -> /abs/path
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        with self._tx() as conn:
            for statement in SCHEMA:
                conn.execute(statement)

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    # One connection per thread and process (gunicorn forks after import).
    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None or getattr(self._local, "pid", None) != os.getpid():
            conn = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    class _Tx:
        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn = conn

        def __enter__(self) -> sqlite3.Connection:
            self.conn.execute("BEGIN IMMEDIATE")  # one writer at a time: check and write together
            return self.conn

        def __exit__(self, exc_type: object, *_: object) -> None:
            self.conn.execute("ROLLBACK" if exc_type else "COMMIT")

    def _tx(self) -> SqliteStorage._Tx:
        return SqliteStorage._Tx(self._conn())

    # Fixed-window counters ----------------------------------------------------------------
    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self._tx() as conn:
            row = conn.execute("SELECT value, expires_at FROM counters WHERE key = ?", (key,)).fetchone()
            if row is None or row[1] <= now:
                value = amount
                conn.execute(
                    "INSERT OR REPLACE INTO counters (key, value, expires_at) VALUES (?, ?, ?)",
                    (key, value, now + expiry),
                )
            else:
                value = row[0] + amount
                conn.execute("UPDATE counters SET value = ? WHERE key = ?", (value, key))
        return value

    def get(self, key: str) -> int:
        row = (
            self._conn()
            .execute("SELECT value FROM counters WHERE key = ? AND expires_at > ?", (key, time.time()))
            .fetchone()
        )
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._conn().execute("SELECT expires_at FROM counters WHERE key = ?", (key,)).fetchone()
        return float(row[0]) if row else time.time()

    def clear(self, key: str) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM counters WHERE key = ?", (key,))
            conn.execute("DELETE FROM events WHERE key = ?", (key,))

    def check(self) -> bool:
        try:
            self._conn().execute("SELECT 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        with self._tx() as conn:
            count = conn.execute("SELECT COUNT(*) FROM counters").fetchone()[0]
            conn.execute("DELETE FROM counters")
            conn.execute("DELETE FROM events")
        return int(count)

    # Moving window --------------------------------------------------------------------------
    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        now = time.time()
        with self._tx() as conn:
            conn.execute("DELETE FROM events WHERE key = ? AND at <= ?", (key, now - expiry))
            (count,) = conn.execute("SELECT COUNT(*) FROM events WHERE key = ?", (key,)).fetchone()
            if count + amount > limit:
                return False
            conn.executemany("INSERT INTO events (key, at) VALUES (?, ?)", [(key, now)] * amount)
        return True

    def acquire_many(self, wanted: dict[str, int], limit: int, expiry: int) -> dict[str, int]:
        """Per key, up to wanted[key] entries of its moving window, all in one transaction (the
        MQTT subscriber counts a whole batch's devices at once); how many each key got."""
        now = time.time()
        got: dict[str, int] = {}
        with self._tx() as conn:
            for key, amount in wanted.items():
                conn.execute("DELETE FROM events WHERE key = ? AND at <= ?", (key, now - expiry))
                (count,) = conn.execute("SELECT COUNT(*) FROM events WHERE key = ?", (key,)).fetchone()
                got[key] = max(0, min(amount, limit - count))
                conn.executemany("INSERT INTO events (key, at) VALUES (?, ?)", [(key, now)] * got[key])
        return got

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        oldest, count = (
            self._conn()
            .execute("SELECT MIN(at), COUNT(*) FROM events WHERE key = ? AND at > ?", (key, now - expiry))
            .fetchone()
        )
        return (float(oldest) if oldest is not None else now), int(count)
