"""Sign-in pages: /login and /logout."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user

from ..access import public
from ..errors import ServiceError
from ..extensions import limiter
from . import service

bp = Blueprint("auth", __name__)


def _safe_next(target: str | None) -> str:
    """Only same-site paths: an open redirect would let a phishing link borrow our sign-in."""
    if not target:
        return url_for("dashboard.index")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return url_for("dashboard.index")
    return target


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit("20 per minute", methods=["POST"])
@public
def login():
    if request.method == "GET" and current_user.is_authenticated:
        return redirect(url_for("dashboard.index"))
    errors: dict[str, str] = {}
    username = request.form.get("username", "")
    if request.method == "POST":
        password = request.form.get("password", "")
        if not username.strip():
            errors["username"] = "This field is required"
        if not password.strip():
            errors["password"] = "This field is required"  # noqa: S105 - a message
        if not errors:
            try:
                account = service.authenticate(username, password)
            except ServiceError as err:
                flash(err.message, "error")
            else:
                service.start_session(account, with_token=False)
                return redirect(_safe_next(request.args.get("next")))
    status = 400 if request.method == "POST" else 200
    return render_template("auth/login.html", username=username, errors=errors), status


@bp.post("/logout")
@public
def logout():
    service.end_session(None)
    return redirect(url_for("auth.login"))
