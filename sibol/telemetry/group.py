"""Single readings arriving together in one worker process, committed together on SQLite.

SQLite has one writer at a time, and each commit costs about as much as a reading's four
statements (single.py): one reading a commit caps a database at about a thousand readings a
second, whatever the load. So the readings that gunicorn's threads in one process are storing at
the same moment share a commit:

  - a thread queues its reading; if no thread of the process is writing, it becomes the leader;
  - the leader waits for the writers' turn (the lock file beside the database, shared with the
    other workers), then takes every reading queued by then, its own and those that arrived while
    the previous group was committing, and writes them in one transaction, each inside a
    SAVEPOINT with single.stage()'s statements: a revoked key, a duplicate (machine, ts) or a
    reading that may open or close an alert is undone alone (ROLLBACK TO) and answered as by
    single.store_one; the others are kept;
  - one COMMIT, then every thread of the group gets its own outcome and answers. A 202 is still
    sent only after the commit that stored its reading.

Nothing waits for company: a reading alone is written at once; a group forms only from readings
that would have waited for the lock anyway. On an error in the group (a database error, the
connection gone), the transaction is rolled back and every reading of the group is stored alone
through single.store_one, so one reading's failure fails no other. MariaDB takes single.store_one
directly: its row locks let writers overlap, and InnoDB already flushes concurrent commits together.
"""

from __future__ import annotations

import os
import threading
from datetime import datetime
from typing import Any

from ..extensions import db
from . import single

ALONE = "alone"  # the group failed: store this reading through single.store_one


class _Reading:
    __slots__ = ("key_hash", "machine_id", "now", "outcome", "reading")

    def __init__(self, machine_id: int, key_hash: str, reading: dict, now: datetime) -> None:
        self.machine_id, self.key_hash, self.reading, self.now = machine_id, key_hash, reading, now
        self.outcome: tuple[int, int, int] | str | None = None


class _Group:
    """The readings of one process waiting to be written to one database, and its leader flag."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.queued: list[_Reading] = []
        self.leading = False

    def store(self, engine: Any, item: _Reading) -> tuple[int, int, int] | str:
        with self.changed:
            self.queued.append(item)
            while self.leading and item.outcome is None:
                self.changed.wait()
            if item.outcome is not None:  # written by another thread's group
                return item.outcome
            self.leading = True
        batch: list[_Reading] = []
        try:
            batch = self._write(engine)
        finally:
            with self.changed:
                if item in self.queued:  # the leader failed before taking the group: not written
                    self.queued.remove(item)
                for each in batch:
                    if each.outcome is None:  # the group stopped half-way: each goes alone
                        each.outcome = ALONE
                self.leading = False
                self.changed.notify_all()  # the group's threads answer; a queued one leads next
        return item.outcome if item.outcome is not None else ALONE

    def _write(self, engine: Any) -> list[_Reading]:
        driver = single.driver_for(engine)
        conn = single.held_connection(engine)
        with single.writers_turn(engine):
            with self.changed:
                batch, self.queued = self.queued, []
            outcomes = _write_group(conn, driver, batch)
        for each, outcome in zip(batch, outcomes, strict=True):
            each.outcome = outcome
        return batch


def _write_group(conn: Any, driver: Any, batch: list[_Reading]) -> list[tuple[int, int, int] | str]:
    """Every reading of `batch` in one transaction, each undone alone when it must be; committed.
    Any error: all rolled back, and every reading is ALONE."""
    cursor = conn.cursor()
    try:
        if not conn.in_transaction:
            cursor.execute("BEGIN")  # the savepoints below nest in it: RELEASE never commits
        outcomes = []
        for each in batch:
            cursor.execute("SAVEPOINT reading")
            outcome = single.stage(cursor, driver, each.machine_id, each.key_hash, each.reading, each.now)
            if outcome in (single.REFUSED, single.GENERAL):
                cursor.execute("ROLLBACK TO reading")
            cursor.execute("RELEASE reading")
            outcomes.append(outcome)
        conn.commit()
        return outcomes
    except Exception:  # noqa: BLE001 - each reading is tried again alone, and answers for itself
        single.rollback_quietly(conn)
        return [ALONE] * len(batch)
    finally:
        cursor.close()


_groups: dict[tuple[int, int], _Group] = {}  # (process id, engine) -> its group
_groups_lock = threading.Lock()


def store_one(machine_id: int, key_hash: str, reading: dict, *, now: datetime) -> tuple[int, int, int] | str:
    """single.store_one, the reading sharing its commit with the process's other single readings
    on a SQLite file. The same outcomes: (accepted, duplicates, 0), REFUSED or GENERAL."""
    engine = db.engine
    if engine.dialect.name != "sqlite" or engine.url.database in (None, "", ":memory:"):
        return single.store_one(machine_id, key_hash, reading, now=now)
    with _groups_lock:
        group = _groups.setdefault((os.getpid(), id(engine)), _Group())
    outcome = group.store(engine, _Reading(machine_id, key_hash, reading, now))
    if outcome == ALONE:
        return single.store_one(machine_id, key_hash, reading, now=now)
    return outcome
