"""/login/code: the sign-in form's second step (the authenticator's code, or a recovery code),
after a right password on /login or after Google. Works as a plain form without JavaScript."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..errors import ServiceError
from ..identity.access import public
from . import google, limits, second_step, service
from .landing import after_password

bp = Blueprint("second_step", __name__)


def code_form(status: int = 200, error: str | None = None):
    """The second form; the password is not asked again."""
    return render_template("auth/second_step.html", error=error), status


@bp.route("/login/code", methods=["GET", "POST"])
@limits.login
@public
def code():
    if request.method == "GET":
        if second_step.pending() is None:
            flash(_(second_step.EXPIRED), "error")
            return redirect(url_for("auth.login"))
        return code_form()
    try:
        done = second_step.finish(request.form.get("totp", "")[:100])
    except ServiceError as err:
        if err.field == "form":  # nothing waits any more: the sign-in starts again
            flash(err.message, "error")
            return redirect(url_for("auth.login"))
        return code_form(err.status, err.message)
    if done.via == "google":
        return google.signed_in_redirect(done.account)
    service.start_session(done.account, with_token=False)
    return after_password(done.account, done.next or None)


@bp.post("/login/code/cancel")
@public
def cancel():
    second_step.drop()
    return redirect(url_for("auth.login"))
