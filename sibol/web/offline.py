"""Pages a worker can open without signal, after one visit online (the installable console).

`@offline_page` marks a page's answer with `X-Sibol-Offline: <account id>.<barangay id>`. The
service worker (static_src/sw/sw.ts) keeps only answers that carry the mark, so it keeps no page
the account may not open (access is checked before the view runs; a refusal carries no mark) and
drops every kept page when the account or the barangay changes. Each such page also loads the
small offline-worker entry that registers the worker, so any of them is kept after one visit. `/sw.js` and
`/manifest.webmanifest` serve the built worker and manifest at the site's root, whose scope the
worker needs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from flask import Flask, Response, abort, g, make_response, send_file
from flask_login import current_user

from ..identity.access import public
from ..identity.tenancy.scope import current_scope
from .assets import STATIC_DIR

HEADER = "X-Sibol-Offline"


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
    app.add_url_rule("/sw.js", "service_worker", service_worker)
    app.add_url_rule("/manifest.webmanifest", "web_manifest", web_manifest)
