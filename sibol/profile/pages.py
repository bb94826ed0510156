"""/profile: name and contact, e-mail change, password change, sign-ins, sessions."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user, logout_user

from ..errors import ServiceError
from ..identity import sessions
from ..identity.access import public, sign_in_page, signed_in
from ..inputs.fields import field_errors
from ..web.home import account_page
from . import limits, service, two_factor_pages
from .browsers import browser_name

bp = Blueprint("profile", __name__)


def _render(
    *, form: str | None = None, values: dict | None = None, errors: dict | None = None, status: int = 200
):
    return render_template(
        "profile/index.html",
        account=current_user,
        form=form,
        values=values or {},
        errors=errors or {},
        pending_email=service.pending_email(current_user),
        sign_ins=service.recent_sign_ins(current_user),
        browser_name=browser_name,
        browsers_and_apps=service.browsers_and_apps(service.active_sessions(current_user)),
        tf=two_factor_pages.section(),
    ), status


@bp.get("/profile")
@account_page
@signed_in
def index():
    return _render()


@bp.post("/profile")
@signed_in
def save_details():
    data = {k: request.form.get(k, "") for k in ("firstName", "lastName", "contactNumber")}
    try:
        service.update_profile(current_user, data)
    except ServiceError as err:
        return _render(form="details", values=data, errors=field_errors(err), status=err.status)
    flash(_("Profile saved."), "success")
    return redirect(url_for("profile.index"))


@bp.post("/profile/email")
@signed_in
def change_email():
    email = request.form.get("email", "")[:300]
    try:
        sent_to = service.request_email_change(current_user, email)
    except ServiceError as err:
        return _render(form="email", values={"email": email}, errors=field_errors(err), status=err.status)
    flash(
        _("We sent a link to %(sent_to)s. Your e-mail changes when you open it.", sent_to=sent_to), "success"
    )
    return redirect(url_for("profile.index"))


@bp.get("/profile/email/confirm")
@public
def confirm_email():
    try:
        account = service.confirm_email_change(request.args.get("token", ""))
    except ServiceError as err:
        return render_template("profile/email_confirmed.html", error=err.message), err.status
    return render_template("profile/email_confirmed.html", email=account.email, error=None)


@bp.post("/profile/password")
@limits.change_password
@signed_in
def change_password():
    try:
        service.change_password(
            current_user, request.form.get("currentPassword"), request.form.get("newPassword")
        )
    except ServiceError as err:
        return _render(form="password", errors=field_errors(err), status=err.status)
    flash(_("Password changed. Every other session of your account has been signed out."), "success")
    return redirect(url_for("profile.index"))


@bp.post("/profile/sessions/<int:session_id>/sign-out")
@signed_in
def sign_out_session(session_id: int):
    """Ends one of the account's own browser sessions (another account's id is a 404)."""
    if service.sign_out_session(current_user, session_id):
        logout_user()  # this browser's own row: it is signed out now
        session.pop(sessions.SESSION_KEY, None)
        flash(_("You are signed out of this browser."), "success")
        return redirect(sign_in_page())
    flash(_("That browser is signed out."), "success")
    return redirect(url_for("profile.index", _anchor="sessions"))


@bp.post("/profile/sign-out-everywhere")
@signed_in
def sign_out_everywhere():
    ended, revoked = service.sign_out_everywhere(current_user)
    logout_user()
    return render_template("profile/signed_out.html", ended=ended, revoked=revoked)
