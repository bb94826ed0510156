"""Pages a worker can open without signal, after one visit online (the installable console).

`@offline_page` marks a page's answer with `X-Sibol-Offline: <account id>.<barangay id>`. The
service worker (static_src/sw/sw.ts) keeps only answers that carry the mark, so it keeps no page
the account may not open (access is checked before the view runs; a refusal carries no mark) and
drops every kept page when the account or the barangay changes. Each such page also loads the
small offline-worker entry that registers the worker, so any of them is kept after one visit. `/sw.js` and
`/manifest.webmanifest` serve the built worker and manifest at the site's root, whose scope the
worker needs.

Shared phones: every answer to a browser signed in by cookie carries the `sibol_account` cookie
(the account's id, readable by scripts and the worker, living as long as the session cookie) and
an answer to one whose session ended deletes it, so the worker drops the kept pages when it
changes and shows none with no signal once it is gone. An entry kept offline states its author
(`X-Sibol-Entry-Author: <account id>`); a write stating another account than the caller's is
refused (403 `another_account`), so one person's entry is never credited to the next.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from flask import Flask, Response, abort, current_app, g, make_response, request, send_file, session
from flask_babel import gettext as _
from flask_login import current_user

from ..errors import ServiceError
from ..identity.access import public
from ..identity.tenancy.scope import current_scope
from .assets import STATIC_DIR

HEADER = "X-Sibol-Offline"
AUTHOR_HEADER = "X-Sibol-Entry-Author"
ACCOUNT_COOKIE = "sibol_account"
READS = ("GET", "HEAD", "OPTIONS", "TRACE")


class AnotherAccount(ServiceError):
    """An entry kept on a shared phone, sent while another account is signed in."""

    status, error = 403, "another_account"


def refuse_another_accounts_entry() -> None:
    """Before the CSRF check (a stale token must not hide the reason): a write that states an
    author other than the signed-in account is refused; without the header nothing is checked,
    and without an account the route answers 401 itself."""
    stated = request.headers.get(AUTHOR_HEADER)
    if stated is None or request.method in READS or not current_user.is_authenticated:
        return
    if stated.strip() != str(current_user.id):
        raise AnotherAccount(
            _(
                "This entry was saved on this phone by another account. It is sent once that account signs in."
            ),
            field="author",
        )


def mark_account(response: Response) -> Response:
    """Sets or deletes the `sibol_account` cookie on pages, redirects and /api answers of a
    browser (not of a bearer token): the account signed in by the session cookie, or none."""
    if g.get("sibol_bearer"):
        return response
    if not (response.mimetype == "text/html" or response.is_json or 300 <= response.status_code < 400):
        return response  # a file or an asset (left without Vary: Cookie): the page around it says it
    had = request.cookies.get(ACCOUNT_COOKIE)
    if had is None and "_user_id" not in session:
        return response  # never signed in here: nothing to say
    config = current_app.config
    if current_user.is_authenticated:
        value = str(current_user.id)
        if had != value:
            response.set_cookie(
                ACCOUNT_COOKIE,
                value,
                expires=current_app.session_interface.get_expiration_time(current_app, session),
                path="/",
                secure=config["SESSION_COOKIE_SECURE"],
                httponly=False,  # read by the pages and the service worker
                samesite="Lax",
            )
    elif had is not None:
        response.delete_cookie(
            ACCOUNT_COOKIE, path="/", secure=config["SESSION_COOKIE_SECURE"], samesite="Lax"
        )
    return response


def offline_page(view: Callable) -> Callable:
    @functools.wraps(view)
    def marked(*args, **kwargs):
        # base.html adds the worker's registration (the offline-worker entry) to this page.
        g.sibol_offline_page = True
        response = make_response(view(*args, **kwargs))
        if response.status_code == 200 and current_user.is_authenticated:
            response.headers[HEADER] = f"{current_user.id}.{current_scope() or 0}"
            response.vary.add("Cookie")
        return response

    return marked


def _built(name: str, mimetype: str) -> Response:
    path = STATIC_DIR / "dist" / name
    if not path.is_file():
        abort(404)
    response = send_file(path, mimetype=mimetype, max_age=0)
    # Always asked again (the browser also checks the worker at most once a day by itself).
    response.headers["Cache-Control"] = "no-cache"
    return response


@public
def service_worker():
    response = _built("sw.js", "text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@public
def web_manifest():
    return _built("manifest.webmanifest", "application/manifest+json")


def install(app: Flask) -> None:
    app.after_request(mark_account)
    app.add_url_rule("/sw.js", "service_worker", service_worker)
    app.add_url_rule("/manifest.webmanifest", "web_manifest", web_manifest)
