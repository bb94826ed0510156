"""GET /api/public/barangays/<slug>: a barangay's public figures as JSON, for anyone who builds on
them. Read-only, open to every origin (CORS), limited per address, cacheable as the page is."""

from __future__ import annotations

from flask import Blueprint, make_response, request
from flask_babel import gettext as _

from ..errors import NotFound
from ..extensions import limiter
from ..identity.access import public
from . import service, slugs

bp = Blueprint("public", __name__, url_prefix="/public")
RATE = "60 per minute"
MAX_AGE = 300


@bp.after_request
def open_to_every_origin(response):
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


@bp.get("/barangays/<slug>")
@limiter.limit(RATE)
@public
def barangay(slug: str):
    found, _current = slugs.find(slug)
    if found is None or not found.is_active:
        raise NotFound(_("No barangay has a public page at this address."), field="slug")
    response = make_response({"success": True, **service.figures_json(service.figures(found))})
    response.headers["Cache-Control"] = f"public, max-age={MAX_AGE}"
    response.add_etag()
    return response.make_conditional(request)
