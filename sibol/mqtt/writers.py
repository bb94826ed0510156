"""Writer processes: a batch's messages stored by several processes at once.

One Python process checks and stores about 2,000 readings/s on MariaDB, most of it Python work
(decoding, validation, the rollup cells) that one interpreter runs on one core at a time. With
SIBOL_MQTT_WRITERS above 1 the subscriber forks that many writer processes before it connects to
the broker; each batch is split into runs of machine ids (one per writer), the parts are stored
at once, each by one writer in its own transaction on its own database connection, and the
subscriber acknowledges the batch only after every part has committed.

Order: one machine's messages of a batch go to one part, in arrival order, and the subscriber
hands over the next batch only when this one is stored, so each machine's order holds.
Faults: a part that fails raises in the subscriber, which stores the whole batch again (the parts
that had committed are taken as duplicates); a writer that dies (killed, out of memory) breaks the
pool, which is made again. A writer whose subscriber is gone exits by itself within a second.
On SQLite (one writer at a time by design) the default is one writer: no processes, as before.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from flask import Flask

from ..extensions import db
from . import dispatch

log = logging.getLogger(__name__)

_APP: Flask | None = None  # the app in a writer process (forked from the subscriber)


def writer_count(app: Flask) -> int:
    """SIBOL_MQTT_WRITERS, or by default 1 on SQLite and 2 on a database server."""
    configured = str(app.config.get("SIBOL_MQTT_WRITERS") or "").strip()
    if configured:
        return max(1, int(configured))
    return 1 if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite") else 2


def store(app: Flask, messages: list[dispatch.Message]) -> dict[str, object]:
    """Run the handlers on `messages` in this process (each commits its own transaction)."""
    with app.app_context():
        try:
            return dispatch.handle(messages)
        finally:
            db.session.remove()


def split(messages: list[dispatch.Message], parts: int) -> list[list[dispatch.Message]]:
    """The messages in up to `parts` runs of machine ids (lowest first), about as many messages in
    each, every machine wholly in one part and in arrival order.

    Runs rather than ids modulo `parts`: the rows a part writes (its machines' readings and
    rollup cells) then sit side by side in the tables' keys, apart from the other parts' rows,
    so the parts' transactions do not wait on each other's gap locks (with ids modulo two, every
    machine's cells touch another part's and the writers deadlock)."""
    per_machine: dict[int, list[dispatch.Message]] = {}
    for message in messages:
        per_machine.setdefault(message.machine_id, []).append(message)
    out: list[list[dispatch.Message]] = [[]]
    share = -(-len(messages) // parts)  # messages per part, rounded up
    for machine_id in sorted(per_machine):
        if len(out[-1]) >= share and len(out) < parts:
            out.append([])
        out[-1].extend(per_machine[machine_id])
    return [part for part in out if part]


class WriterPool:
    """`count` forked writer processes; `store` blocks until every part of a batch committed."""

    def __init__(self, app: Flask, count: int):
        self.app, self.count = app, count
        self.pool = self._fork()

    def _fork(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("fork")  # the writers inherit the app and the handlers
        pool = ProcessPoolExecutor(
            self.count, mp_context=context, initializer=_start_writer, initargs=(self.app, os.getpid())
        )
        # With fork, the pool forks all its workers at the first task: do it now, before the
        # subscriber starts its network thread.
        for future in [pool.submit(os.getpid) for _ in range(self.count)]:
            future.result(timeout=60)
        return pool

    def store(self, messages: list[dispatch.Message]) -> list[dict[str, object]]:
        parts = split(messages, self.count)
        try:
            futures = [self.pool.submit(_store_part, part) for part in parts]
            return [future.result() for future in futures]
        except BrokenProcessPool:
            log.error("a writer process died; starting the writers again")
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = self._fork()
            raise

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def _start_writer(app: Flask, parent: int) -> None:
    global _APP
    _APP = app
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the subscriber, which stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with app.app_context():
        db.engine.dispose(close=False)  # the subscriber's pooled connections are not ours to use
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    """A writer outliving a SIGKILLed subscriber would hold database connections for nothing."""
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)


def _store_part(messages: list[dispatch.Message]) -> dict[str, object]:
    if _APP is None:
        raise RuntimeError("a writer process starts with _start_writer")
    return store(_APP, messages)
