"""Retried writes run once: the Idempotency-Key header under /api and one-time form ids on pages.

A POST, PUT or PATCH under /api may carry `Idempotency-Key` (1 to 255 printable ASCII
characters). The first request with a key takes a row of idempotency_records with one INSERT
(the unique (owner, key) lets only one of two simultaneous requests in) and commits it before
the view runs; its answer is stored in the row afterwards. Another request with that key, from
the same account or device key, within 24 hours:
  - same method, path and body, first one finished: the stored answer again (status and body,
    `Idempotent-Replayed: true`), the view does not run;
  - same key, another body: 422;
  - the first one still running: 409 with Retry-After.
Keys are per caller (an account, or a device's key, however sent), so a replay
never shows one account another's answer. A request without a signed-in account or a device key
ignores the header (sign-in, sign-up: there is no caller to keep it for).

A page form that holds `form_id` (form_once() in templates, a new one each time the form is
drawn) gets the same treatment with the id as its key: a double tap or a resent form stores
once, and the second request gets the first one's answer (usually its redirect). A page that
finds the first request still running waits for it a few seconds rather than showing an error.

Answers of 5xx, 429 and 409 (and a page's form shown again with field errors) are not kept: the row is released, so a retry runs the work (none of
it was committed). A row whose first request never finished (the server died) is taken over
after STALE.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import time
from datetime import timedelta
from typing import Any, cast

from flask import Flask, Response, current_app, g, render_template, request
from flask_babel import gettext as _
from flask_login import current_user
from markupsafe import Markup
from sqlalchemy import CursorResult, Table, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..errors import is_api_path, json_error
from ..extensions import db
from ..identity.authorization import device_key
from ..identity.tenancy.scope import current_scope
from ..models import utcnow
from ..models.idempotency import IdempotencyRecord

HEADER = "Idempotency-Key"
FORM_FIELD = "form_id"
MAX_KEY = 255
KEEP = timedelta(hours=24)
STALE = timedelta(minutes=2)  # a first request that has run this long is taken as dead
MAX_KEPT_BODY = 1024 * 1024  # a larger answer is not kept (the key is released)
PAGE_WAIT = 8.0  # seconds a page's resent form waits for the first one to finish
METHODS = frozenset({"POST", "PUT", "PATCH"})
# Form fields that differ between two sends of one drawn form without changing what it asks.
_VOLATILE_FIELDS = frozenset({"csrf_token"})

_table = cast(Table, IdempotencyRecord.__table__)


def _is_printable(key: str) -> bool:
    return all(" " <= ch <= "~" for ch in key)


def key_problem(raw: str) -> str | None:
    """Why a header value cannot be an Idempotency-Key, or None when it can."""
    if not raw.strip():
        return _("%(header)s must not be empty.", header=HEADER)
    if len(raw) > MAX_KEY:
        return _("%(header)s must be at most %(max)s characters.", header=HEADER, max=MAX_KEY)
    if not _is_printable(raw):
        return _("%(header)s must be printable characters (letters, digits, punctuation).", header=HEADER)
    return None


def _owner() -> str | None:
    if current_user.is_authenticated:
        return f"account:{current_user.id}"
    raw = device_key(request.headers)  # Authorization: Device <key>, or X-Device-Key
    if raw:
        return "device:" + hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return None


def _fingerprint(is_api: bool) -> str:
    digest = hashlib.sha256()
    # The barangay a City Admin works in is part of the request: the same body sent for
    # another barangay is another request.
    digest.update(f"{request.method} {request.path} {current_scope()}\n".encode())
    if is_api:
        digest.update(request.get_data(cache=True))
    else:
        fields = sorted((k, v) for k, v in request.form.items(multi=True) if k not in _VOLATILE_FIELDS)
        digest.update(json.dumps(fields).encode())
    return digest.hexdigest()


def _row(owner: str, key_hash: str):
    return db.session.execute(
        select(_table).where(_table.c.owner == owner, _table.c.key_hash == key_hash)
    ).first()


def _take(owner: str, key_hash: str, fingerprint: str, claim: str):
    """Takes the key for this request (None) or returns the row another request holds."""
    now = utcnow()
    values = dict(
        fingerprint=fingerprint,
        claim=claim,
        status=None,
        content_type=None,
        location=None,
        body=None,
        created_at=now,
        expires_at=now + KEEP,
    )
    try:
        db.session.execute(insert(_table).values(owner=owner, key_hash=key_hash, **values))
        db.session.commit()
        return None
    except IntegrityError:
        db.session.rollback()
    row = _row(owner, key_hash)
    if row is None:  # released between our insert and our read: one more try
        return _take(owner, key_hash, fingerprint, claim)
    if row.expires_at > now and (row.status is not None or row.created_at > now - STALE):
        return row
    # Expired, or abandoned by a request that died: taken over by one conditional UPDATE, so
    # of two requests that find it so, one gets it.
    taken = cast(
        "CursorResult[Any]",
        db.session.execute(
            update(_table).where(_table.c.id == row.id, _table.c.claim == row.claim).values(**values)
        ),
    )
    db.session.commit()
    return None if taken.rowcount == 1 else _row(owner, key_hash)


def _replay(row) -> Response:
    response = Response(row.body or b"", status=row.status, content_type=row.content_type)
    if row.location:
        response.headers["Location"] = row.location
    response.headers["Idempotent-Replayed"] = "true"
    response.headers["Cache-Control"] = "no-store"
    return response


def _refuse(status: int, message: str, code: str, is_api: bool) -> Response:
    if is_api:
        response = json_error(status, message, code=code, field=HEADER)
    else:
        response = current_app.make_response(
            (render_template("errors/error.html", status=status, message=message), status)
        )
    if status == 409:
        response.headers["Retry-After"] = "1"
    return response


def _found(row, fingerprint: str, is_api: bool) -> Response:
    if row.fingerprint != fingerprint:
        message = (
            _("This %(header)s was already used for another request.", header=HEADER)
            if is_api
            else _("This form was already sent with other values. Reload the page and try again.")
        )
        return _refuse(422, message, "idempotency_key_reused", is_api)
    if row.status is None:
        message = _("The first request with this %(header)s is still running.", header=HEADER)
        return _refuse(409, message, "idempotency_key_in_use", is_api)
    return _replay(row)


def _wait_for(owner: str, key_hash: str, row):
    """A page's resent form: the first request's row once it has an answer (or as it stands)."""
    deadline = time.monotonic() + PAGE_WAIT
    while row is not None and row.status is None and time.monotonic() < deadline:
        time.sleep(0.1)
        db.session.rollback()  # a fresh snapshot on MariaDB's REPEATABLE READ
        row = _row(owner, key_hash)
    return row


def _key_of_request(is_api: bool) -> str | None:
    if is_api:
        return request.headers.get(HEADER)
    if request.mimetype not in ("application/x-www-form-urlencoded", "multipart/form-data"):
        return None
    value = request.form.get(FORM_FIELD)
    return f"form:{value}" if value else None


def before_write():
    """before_request (after access and scope): takes the key, or answers for the first request."""
    if request.method not in METHODS or request.url_rule is None:
        return None
    is_api = is_api_path(request.path)
    raw = _key_of_request(is_api)
    if raw is None:
        return None
    problem = key_problem(raw.removeprefix("form:") if not is_api else raw)
    if problem:
        if not is_api:
            return None  # a page form with a broken id is sent as a form without one
        return json_error(400, problem, code="invalid", field=HEADER, errors={HEADER: problem})
    owner = _owner()
    if owner is None:
        return None
    key_hash = hashlib.sha256(raw.encode()).hexdigest()
    fingerprint = _fingerprint(is_api)
    claim = secrets.token_hex(16)
    row = _take(owner, key_hash, fingerprint, claim)
    if row is None:
        g.sibol_idempotency = (owner, key_hash, claim, is_api)
        return None
    if not is_api and row.status is None and row.fingerprint == fingerprint:
        row = _wait_for(owner, key_hash, row) or row
    return _found(row, fingerprint, is_api)


def _keeps(response: Response, is_api: bool) -> bool:
    status = response.status_code
    if status >= 500 or status in (409, 429) or response.is_streamed:
        return False
    if not is_api and status >= 400:
        return False  # a page's form shown again with field errors is fixed and sent again
    return len(response.get_data()) <= MAX_KEPT_BODY


def after_write(response: Response) -> Response:
    """after_request: keeps the answer in the row this request took (or releases it)."""
    taken = g.pop("sibol_idempotency", None)
    if taken is None:
        return response
    owner, key_hash, claim, is_api = taken
    if response.status_code >= 400:
        db.session.rollback()  # an error answer commits nothing of the view's work
    mine = (_table.c.owner == owner, _table.c.key_hash == key_hash, _table.c.claim == claim)
    if _keeps(response, is_api):
        db.session.execute(
            update(_table)
            .where(*mine)
            .values(
                status=response.status_code,
                content_type=response.content_type,
                location=response.headers.get("Location"),
                body=response.get_data(),
            )
        )
    else:
        db.session.execute(delete(_table).where(*mine))
    db.session.commit()
    if random.random() < 0.01:  # noqa: S311 - now and then, not a secret
        _forget_expired()
    return response


def release_on_failure(_exc: BaseException | None) -> None:
    """teardown_request: a request that ended before after_write (an error on the way) lets
    its key go, so a retry runs."""
    taken = g.pop("sibol_idempotency", None)
    if taken is None:
        return
    owner, key_hash, claim, _is_api = taken
    try:
        db.session.rollback()
        db.session.execute(
            delete(_table).where(
                _table.c.owner == owner, _table.c.key_hash == key_hash, _table.c.claim == claim
            )
        )
        db.session.commit()
    except Exception:  # pragma: no cover - the row then goes stale and is taken over
        db.session.rollback()
        current_app.logger.exception("Could not release an idempotency key")


def _forget_expired() -> None:
    try:
        db.session.execute(delete(_table).where(_table.c.expires_at < utcnow()))
        db.session.commit()
    except Exception:  # pragma: no cover - another request is cleaning up at the same time
        db.session.rollback()


def form_once() -> Markup:
    """The hidden one-time id of a page form: a double tap or a resent form stores once."""
    return Markup('<input type="hidden" name="{}" value="{}">').format(FORM_FIELD, secrets.token_urlsafe(18))


def install(app: Flask) -> None:
    """Registered after the access and tenancy hooks, so the caller and barangay are known."""
    app.before_request(before_write)
    app.after_request(after_write)
    app.teardown_request(release_on_failure)
    app.jinja_env.globals["form_once"] = form_once
