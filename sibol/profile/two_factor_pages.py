"""/profile/two-factor: set up an authenticator app (QR code and the secret as text, confirmed by
its first code), the recovery codes shown once, and turning it off. The same section stands on
/profile; an account that SIBOL_REQUIRE_2FA asks for it and that has none yet is sent here and
may use nothing else until it is done. Plain forms: no JavaScript needed."""

from __future__ import annotations

import segno
from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from markupsafe import Markup

from ..errors import ServiceError
from ..identity import totp
from ..identity.access import enrolment_page, enrolment_step, signed_in
from ..inputs.fields import field_errors
from . import limits, two_factor

bp = Blueprint("two_factor", __name__)


def qr_svg(uri: str) -> Markup:
    """The otpauth:// address as an inline SVG QR code (made on the server with segno)."""
    svg = segno.make(uri, error="m").svg_inline(
        scale=5, border=4, title=_("QR code for your authenticator app")
    )
    return Markup(svg)  # noqa: S704 - segno's own SVG; the title is escaped by segno


def section(errors: dict | None = None) -> dict:
    """What the two-step sign-in section shows, for the profile page and this one."""
    state = two_factor.status(current_user)
    secret = totp.pending_secret(current_user) if state["pending"] else None
    uri = totp.provisioning_uri(current_user, secret) if secret else None
    return {
        **state,
        "secret": secret,
        "secret_grouped": " ".join(secret[i : i + 4] for i in range(0, len(secret), 4)) if secret else "",
        "qr": qr_svg(uri) if uri else None,
        "errors": errors or {},
    }


def _page(errors: dict | None = None, status: int = 200):
    response = make_response(render_template("profile/two_factor.html", tf=section(errors)), status)
    response.headers["Cache-Control"] = "no-store"  # a secret waiting for its first code is on it
    return response


def _back():
    """Back to the section: on /profile, or here while nothing else is open to the account."""
    if totp.must_enrol(current_user):
        return redirect(url_for("two_factor.enrol"))
    return redirect(url_for("profile.index", _anchor="two-factor"))


@bp.get("/profile/two-factor")
@enrolment_page
@signed_in
def enrol():
    return _page()


@bp.post("/profile/two-factor/start")
@limits.two_factor
@enrolment_step
@signed_in
def start():
    try:
        two_factor.start(current_user)
    except ServiceError as err:
        flash(err.message, "error")
    return _back()


@bp.post("/profile/two-factor/confirm")
@limits.two_factor
@enrolment_step
@signed_in
def confirm():
    try:
        codes = two_factor.confirm(current_user, request.form.get("code", "")[:40])
    except ServiceError as err:
        return _page(field_errors(err), err.status)
    response = make_response(render_template("profile/two_factor_codes.html", codes=codes))
    response.headers["Cache-Control"] = "no-store"  # shown this once
    return response


@bp.post("/profile/two-factor/disable")
@limits.two_factor
@enrolment_step
@signed_in
def disable():
    try:
        two_factor.disable(
            current_user, request.form.get("password", "")[:300], request.form.get("code", "")[:40]
        )
    except ServiceError as err:
        return _page(field_errors(err), err.status)
    flash(_("Two-step sign-in is off."), "success")
    return _back()
