"""The task queue (Huey): slow work leaves the request and is done, and retried, by a consumer.

This module knows no feature. Each feature defines its own tasks beside the work they do
(`sibol/auth/tasks.py`, `sibol/telemetry/tasks.py`, e-mail delivery in `sibol/emails.py`), with
`@huey.task()` from here; `sibol.worker` imports them all for `huey_consumer sibol.worker.huey`.

Storage follows SIBOL_QUEUE_URL (sibol.config.queue_url): a SQLite file beside the instance's
database by default, Redis when it names one (the queue's name then carries the instance's name,
so two consoles on one Redis never take each other's work). In tests (app.testing) or with
SIBOL_QUEUE_IMMEDIATE=1 a task runs at once, in the request that queued it.

A task that needs the app (templates, database, mail settings) runs inside the request's app
context in immediate mode, or inside one app per consumer process otherwise: the consumer's
entry module hands this module the factory (`set_app_factory`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from flask import Flask, current_app, has_app_context
from huey import Huey, RedisHuey, SqliteHuey

from ..config import instance_name, mail_retry_settings, queue_url
from ..extensions import db

ROOT = Path(__file__).resolve().parents[2]
log = logging.getLogger("sibol.jobs")
T = TypeVar("T")


def make_huey(url: str, name: str = "sibol") -> Huey:
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisHuey(name, url=url, results=False)
    path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else url
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return SqliteHuey(name, filename=path, results=False)


huey = make_huey(queue_url(str(ROOT / "instance")), instance_name(str(ROOT / "instance")))
MAIL_RETRIES, MAIL_RETRY_DELAY = mail_retry_settings()
_app_factory: Callable[[], Flask] | None = None
_consumer_app: Flask | None = None


def init_app(app: Flask) -> None:
    huey.immediate = bool(app.config.get("SIBOL_QUEUE_IMMEDIATE") or app.testing)


def set_app_factory(factory: Callable[[], Flask]) -> None:
    """The consumer's entry module says how to build the app its tasks run in."""
    global _app_factory
    _app_factory = factory


def in_app(work: Callable[[], T]) -> T:
    """Run `work` with an app context: the caller's, or this consumer process's own app."""
    global _consumer_app
    if has_app_context():
        return work()
    if _consumer_app is None:
        if _app_factory is None:
            raise RuntimeError("No app for queued work: run the consumer as huey_consumer sibol.worker.huey")
        _consumer_app = _app_factory()
    with _consumer_app.app_context():
        try:
            return work()
        finally:
            db.session.remove()


def enqueue(task: Callable[..., object], *args: object, what: str = "") -> None:
    """Queue a task; when the queue's store is unreachable, log it instead of failing the
    request (the change the task reports on is already committed)."""
    try:
        task(*args)
    except Exception:
        (current_app.logger if has_app_context() else log).exception("Could not queue %s", what or task)
