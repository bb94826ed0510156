"""/ and /healthz."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect, url_for
from sqlalchemy import text

from ..extensions import db
from ..identity.access import public

bp = Blueprint("core", __name__)


@bp.get("/")
@public
def index():
    return redirect(url_for("auth.login"))


@bp.get("/healthz")
@public
def healthz():
    """200 when the database answers a query, 503 when it does not."""
    try:
        db.session.execute(text("SELECT 1"))
        return jsonify(status="ok", database="ok")
    except Exception as err:  # any driver error means the database is not usable
        db.session.rollback()
        current_app.logger.warning("healthz: database check failed: %s", err)
        response = jsonify(status="error", database="unavailable")
        response.status_code = 503
        return response


@bp.get("/api/openapi.json")
@public
def openapi():
    """The OpenAPI 3 document of the whole /api."""
    from ..api.openapi import build_openapi

    return jsonify(build_openapi(current_app))
