"""Run a request's transaction again when the database asks for it.

A MariaDB Galera cluster certifies each transaction against the others at commit; when two nodes
change the same rows at the same moment, one of them is refused with a deadlock error and must be
tried again from its start (InnoDB does the same on one server for a real deadlock). Every request
here is one transaction and sends its e-mail only after its commit, so running the view again after
a rollback is safe: nothing of the failed attempt was kept or sent.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, g, request
from sqlalchemy.exc import DBAPIError

from ..extensions import db, limiter

log = logging.getLogger(__name__)

ATTEMPTS = 6
# Backoff before attempt n+1: a random wait up to BACKOFF * 2**n seconds ("full jitter"), so
# requests that collided once spread out instead of colliding again: 40, 80, 160, 320, 640 ms at
# most, about 1.2 s in all. Four attempts with a short linear wait lost 1 of 160 edits when eight
# clients changed one machine through two Galera nodes at once (make test-cluster).
BACKOFF = 0.02
# 1213: a deadlock, or a Galera certification failure; 1205: a lock wait timeout.
RETRYABLE_CODES = frozenset({1213, 1205})
MAX_WAIT = 2.0  # seconds: no single wait is longer, however many attempts a caller allows
T = TypeVar("T")


def error_code(err: BaseException) -> int | None:
    orig = getattr(err, "orig", None)
    args = getattr(orig, "args", ())
    return args[0] if args and isinstance(args[0], int) else None


def is_retryable(err: BaseException) -> bool:
    return isinstance(err, DBAPIError) and error_code(err) in RETRYABLE_CODES


def _rewind_uploads() -> None:
    for storage in request.files.values():
        try:
            storage.stream.seek(0)
        except (AttributeError, OSError):  # pragma: no cover - a stream that cannot seek
            pass


def with_retry(
    work: Callable[[], T],
    *,
    attempts: int = ATTEMPTS,
    backoff: float = BACKOFF,
    retryable: Callable[[DBAPIError], bool] = is_retryable,
    before_retry: Callable[[DBAPIError, int], None] | None = None,
) -> T:
    """Run `work` (one whole transaction) and, after a database error that `retryable` accepts,
    roll back and run it again, up to `attempts` times, with a full-jitter wait between. The one
    retry loop of the console: a request's view, a device's request, the MQTT batch store."""
    for attempt in range(1, attempts + 1):
        try:
            return work()
        except DBAPIError as err:
            db.session.rollback()  # nothing of the failed attempt is kept
            if not retryable(err) or attempt == attempts:
                raise
            if before_retry is not None:
                before_retry(err, attempt)
            time.sleep(random.uniform(0, min(MAX_WAIT, backoff * 2**attempt)))  # noqa: S311 - jitter, not a secret
    raise AssertionError("unreachable")  # pragma: no cover


def install_write_retry(app: Flask) -> None:
    """Wrap the app's dispatch so a retryable database error reruns the view (up to ATTEMPTS)."""
    dispatch: Callable = app.dispatch_request
    # A rate limit declared on a view is counted each time the view runs: a rerun is the same
    # request, so it is not counted again (six attempts of a sign-in spent six of its ten a minute).
    limiter.request_filter(lambda: bool(g.get("sibol_retrying")))

    def again(err: DBAPIError, attempt: int) -> None:
        g.sibol_retrying = True
        _rewind_uploads()
        log.info(
            "retrying %s %s after database error %s (attempt %d)",
            request.method,
            request.path,
            error_code(err),
            attempt,
        )

    def dispatch_with_retry():
        g.pop("sibol_retrying", None)
        return with_retry(dispatch, before_retry=again)

    app.dispatch_request = dispatch_with_retry  # type: ignore[method-assign]
