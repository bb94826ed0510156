"""Live regions: parts of a server page that follow changes by conditional polling.

A live region is an element marked `{{ live_attrs("endpoint", **values) }}`, which writes
`data-live="<fragment URL>" data-live-etag="<ETag>"`. The fragment URL is an ordinary GET route
decorated with @live_fragment: it returns a Fragment, a cheap `version` (a few values that change
whenever what the region shows changes: the newest reading's time, an unread count) and a
`render()` that draws the region's HTML (the same partial the page includes). The route answers
304 with no body when If-None-Match names the current ETag, else 200 with the HTML and its ETag.

Browsers poll every region of a page in ONE request, `GET /api/live?r=<url>&r=<url>` with the
regions' ETags in If-None-Match: 304 while none changed, else JSON with the HTML of those that
did. Each region is resolved through the URL map and checked as if it were called directly
(its access declaration, then the view's own barangay checks), so a region can never show what
its route would refuse. See docs/telemetry.md, "Panels that update themselves".
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException

from ..errors import Invalid, ServiceError
from ..identity.access import access_of, allows, signed_in

MAX_REGIONS = 8  # regions one poll may ask about: a page has two or three
MAX_URL = 300


@dataclass(frozen=True)
class Fragment:
    """What a live fragment view returns: a cheap version of what the region shows, and how to
    draw it. `render` runs only when the version changed since the caller's copy."""

    version: tuple
    render: Callable[[], str]


@dataclass(frozen=True)
class RegionState:
    url: str
    status: int
    etag: str | None = None
    fragment: Fragment | None = None


def etag_for(path: str, version: tuple) -> str:
    """16 hex digits naming (region, language, version): two regions never share an ETag."""
    raw = repr((path, str(get_locale() or ""), version)).encode()
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


def not_modified(etag: str) -> Response:
    """A 304 with no body and nothing but its ETag: polls are most of a live page's traffic."""
    response = Response(status=304)
    response.headers["ETag"] = f'"{etag}"'
    response.sibol_bare = True  # type: ignore[attr-defined]  # security.py adds no page headers
    return response


def live_fragment(view: Callable[..., Fragment]) -> Callable[..., Response]:
    """Turns a view returning a Fragment into a conditional GET route (200 + ETag, or 304).
    Put it under the access decorator: `@bp.get(...)`, `@module_required(...)`, `@live_fragment`."""

    @functools.wraps(view)
    def conditional(**values: Any) -> Response:
        fragment = view(**values)
        etag = etag_for(request.path, fragment.version)
        if etag in request.if_none_match:
            return not_modified(etag)
        g.sibol_live_etags = {**g.get("sibol_live_etags", {}), request.path: etag}
        response = Response(fragment.render(), mimetype="text/html")
        response.headers["ETag"] = f'"{etag}"'
        response.headers["Cache-Control"] = "no-cache, private"
        return response

    conditional.sibol_live_source = view  # type: ignore[attr-defined]
    return conditional


def _live_source(endpoint: str) -> Callable[..., Fragment] | None:
    view = current_app.view_functions.get(endpoint)
    while view is not None:
        source = getattr(view, "sibol_live_source", None)
        if source is not None:
            return source
        view = getattr(view, "__wrapped__", None)
    return None


def resolve(url: str) -> RegionState:
    """The region at `url` as the current account may see it: its status, ETag and Fragment."""
    if not url.startswith("/") or url.startswith("//") or "?" in url or len(url) > MAX_URL:
        return RegionState(url, 404)
    adapter = current_app.url_map.bind_to_environ(request.environ)
    try:
        endpoint, values = adapter.match(url, method="GET")
    except HTTPException:  # no such route, or a redirect (a trailing slash)
        return RegionState(url, 404)
    source = _live_source(str(endpoint))
    access = access_of(str(endpoint))
    if source is None or access is None:
        return RegionState(url, 404)
    if not current_user.is_authenticated:
        return RegionState(url, 401)
    if not allows(access, current_user, "GET"):
        return RegionState(url, 403)
    try:
        fragment = source(**values)
    except HTTPException as err:  # abort(404) for another barangay's machine
        return RegionState(url, err.code or 500)
    except ServiceError as err:
        return RegionState(url, err.status)
    return RegionState(url, 200, etag_for(url, fragment.version), fragment)


def live_attrs(endpoint: str, **values: Any) -> Markup:
    """Template helper: the attributes that make an element a live region of this fragment."""
    url = url_for(endpoint, **values)
    known = g.get("sibol_live_etags", {}).get(url)  # the fragment route itself is rendering
    etag = known or resolve(url).etag
    attrs = f'data-live="{escape(url)}"'
    if etag:
        attrs += f' data-live-etag="{etag}"'
    return Markup(attrs)  # noqa: S704 - both values are escaped or hex digits


bp = Blueprint("live", __name__, url_prefix="/live")

# The poll's description in /api/openapi.json (the app factory collects it with the features').
OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.live.poll", "GET"): {
        "summary": "One poll for every live region of a page (304 when none changed)",
        "query": {
            "r": {
                "type": "array",
                "items": {"type": "string", "maxLength": MAX_URL},
                "maxItems": MAX_REGIONS,
                "description": "A region's fragment URL, once per region; their ETags go in If-None-Match",
            }
        },
        "also": ["304"],
        "errors": ["400", "401"],
    }
}


@bp.get("")
@signed_in
def poll():
    """One poll for every live region of a page: `?r=<fragment url>` once per region, their
    ETags in If-None-Match. 304 when none changed; else {"regions": [{url, status, etag, html}]}
    with `html` only for the regions whose ETag the caller did not send."""
    urls = list(dict.fromkeys(request.args.getlist("r")))
    if not urls:
        raise Invalid(_("Name at least one region (r=/fragment/url)."), field="r")
    if len(urls) > MAX_REGIONS:
        raise Invalid(_("At most %(count)s regions in one poll.", count=MAX_REGIONS), field="r")
    known = request.if_none_match
    states = [resolve(url) for url in urls]
    if all(state.etag is not None and state.etag in known for state in states):
        return not_modified(etag_for("/api/live", tuple(state.etag for state in states)))
    regions = []
    for state in states:
        entry: dict[str, Any] = {"url": state.url, "status": state.status, "etag": state.etag}
        if state.fragment is not None and state.etag is not None and state.etag not in known:
            g.sibol_live_etags = {**g.get("sibol_live_etags", {}), state.url: state.etag}
            entry["html"] = state.fragment.render()
        regions.append(entry)
    response = current_app.json.response({"regions": regions})
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def install(app: Flask, api: Blueprint) -> None:
    """The poll route under /api and the live_attrs() template helper."""
    api.register_blueprint(bp)
    app.jinja_env.globals["live_attrs"] = live_attrs
