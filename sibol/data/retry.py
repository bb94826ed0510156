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


def install_write_retry(app: Flask) -> None:
    """Wrap the app's dispatch so a retryable database error reruns the view (up to ATTEMPTS)."""
    dispatch: Callable = app.dispatch_request
    # A rate limit declared on a view is counted each time the view runs: a rerun is the same
    # request, so it is not counted again (six attempts of a sign-in spent six of its ten a minute).
    limiter.request_filter(lambda: bool(g.get("sibol_retrying")))

    def dispatch_with_retry():
        g.pop("sibol_retrying", None)
        for attempt in range(1, ATTEMPTS + 1):
            if attempt > 1:
                g.sibol_retrying = True
            try:
                return dispatch()
            except DBAPIError as err:
                if not is_retryable(err) or attempt == ATTEMPTS:
                    raise
                db.session.rollback()
                _rewind_uploads()
                log.info(
                    "retrying %s %s after database error %s (attempt %d)",
                    request.method,
                    request.path,
                    error_code(err),
                    attempt,
                )
                time.sleep(random.uniform(0, BACKOFF * 2**attempt))  # noqa: S311 - jitter, not a secret
        raise AssertionError("unreachable")  # pragma: no cover

    app.dispatch_request = dispatch_with_retry  # type: ignore[method-assign]
