"""The lean path of device routes: a WSGI layer in front of the app for `keys.device_route`s.

A device's request carries its key and a small JSON body, and nothing a page needs: no cookie,
no CSRF token, no signed-in account, no barangay filter, no template. So the routes declared with
`keys.device_route` skip Flask's before/after-request hooks (session loading, CSRF, access,
tenancy, language, security headers, compression, critical CSS) and run as: request context,
rate limit, key (keys.authenticate), body, handler, JSON. What the hooks would have added that a
device still needs is kept here: JSON errors of the same shape as the rest of /api (errors.py),
the retry of a transaction refused by a deadlock or a Galera certification (retry.py), 503 when
the database stays busy, `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.

Every other request (other paths, other methods on these paths) goes to the app unchanged.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from flask import request
from flask_babel import gettext as _
from flask_babel import refresh
from sqlalchemy.exc import OperationalError
from werkzeug.wrappers import Response

from ..api import json_body
from ..data.retry import with_retry
from ..errors import (
    BUSY_MESSAGE,
    BUSY_RETRY_AFTER,
    HTTP_MESSAGES,
    ServiceError,
    database_busy,
)
from ..extensions import db
from . import keys
from .auth import check_device_limit

log = logging.getLogger(__name__)

HEADERS = [("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")]


class DeviceRequest:
    """What a device handler reads: flask.request, plus the body parsed with /api's limits."""

    def __init__(self) -> None:
        self.method = request.method
        self.headers = request.headers
        self.args = request.args

    def json(self) -> dict[str, Any]:
        """The body's JSON object, read as every /api route reads it (json_body)."""
        return json_body()


def _compile(pattern: str) -> re.Pattern[str]:
    names: list[str] = []

    def part(match: re.Match[str]) -> str:
        names.append(match.group(1))
        return f"(?P<{match.group(1)}>[0-9]{{1,18}})"

    regex = re.sub(r"<([a-z_]+)>", part, re.escape(pattern).replace(r"\<", "<").replace(r"\>", ">"))
    return re.compile(f"^{regex}$")


class DeviceRoutes:
    """WSGI middleware: serve keys.DEVICE_ROUTES on the lean path, pass the rest to `inner`."""

    def __init__(self, app: Any, inner: Any):
        self.app, self.inner = app, inner
        self._compiled: dict[tuple[str, str], re.Pattern[str]] = {}

    def _match(self, method: str, path: str) -> tuple[keys.DeviceHandler, dict[str, int]] | None:
        if not path.startswith("/api/"):
            return None
        for (route_method, pattern), handler in keys.DEVICE_ROUTES.items():
            if route_method != method:
                continue
            if "<" not in pattern:
                if pattern == path:
                    return handler, {}
                continue
            regex = self._compiled.get((method, pattern)) or _compile(pattern)
            self._compiled[(method, pattern)] = regex
            found = regex.match(path)
            if found:
                return handler, {k: int(v) for k, v in found.groupdict().items()}
        return None

    def __call__(self, environ, start_response):
        matched = self._match(environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", ""))
        if matched is None:
            return self.inner(environ, start_response)
        handler, ids = matched
        with self.app.request_context(environ):
            refresh()  # the language is chosen again for each request (tests reuse app contexts)
            response = self._serve(handler, ids)
        return response(environ, start_response)

    def _serve(self, handler: keys.DeviceHandler, ids: dict[str, int]) -> Response:
        try:
            header = request.headers.get("Authorization")
            check_device_limit(header)  # one count per device over every device route and MQTT
            device = keys.authenticate(header)
            body, status = _run(handler, device, DeviceRequest(), ids)
            return _json(body, status)
        except ServiceError as err:
            db.session.rollback()
            retry_after = getattr(err, "retry_after", None)
            headers = [("Retry-After", str(retry_after))] if retry_after else []
            return _json(err.payload(), err.status, headers)
        except OperationalError as err:
            db.session.rollback()
            if not database_busy(err):
                return _unexpected()
            log.warning("Database busy on %s %s: %s", request.method, request.path, err.orig)
            message = _(BUSY_MESSAGE)
            body = {"success": False, "message": message, "error": message, "code": "database_busy"}
            body["retryAfter"] = BUSY_RETRY_AFTER
            return _json(body, 503, [("Retry-After", str(BUSY_RETRY_AFTER))])
        except Exception:  # noqa: BLE001 - a device gets JSON 500, never a traceback
            db.session.rollback()
            return _unexpected()


def _unexpected() -> Response:
    log.exception("Unhandled error on %s %s", request.method, request.path)
    message = _(HTTP_MESSAGES[500])
    return _json({"success": False, "message": message, "error": message, "code": "internal_error"}, 500)


def _run(handler: keys.DeviceHandler, device: keys.Device, req: DeviceRequest, ids: dict[str, int]):
    """The handler, again after a retryable database error (its transaction was rolled back)."""
    return with_retry(lambda: handler(device, req, **ids))


def _json(body: dict, status: int, extra: list[tuple[str, str]] | None = None) -> Response:
    data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(data))), *HEADERS]
    return Response(data, status=status, headers=headers + (extra or []))
