"""/ and /healthz."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect

from ..api.openapi import build_openapi
from ..identity.access import public
from ..web.home import home_url
from . import service

bp = Blueprint("core", __name__)


@bp.get("/")
@public
def index():
    """The signed-in account's home page (sibol.web.home); the sign-in page for anyone else."""
    return redirect(home_url())


@bp.get("/healthz")
@public
def healthz():
    """200 when the database answers a query, 503 when it does not."""
    if service.database_answers():
        return jsonify(status="ok", database="ok")
    response = jsonify(status="error", database="unavailable")
    response.status_code = 503
    return response


@bp.get("/api/openapi.json")
@public
def openapi():
    """The OpenAPI 3 document of the whole /api."""
    return jsonify(build_openapi(current_app))
