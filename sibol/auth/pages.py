"""Account entry pages: /login, /signup, /email-verification, /pending-approval, /set-password,
and the no-JavaScript steps of the Forgot Password dialog (/forgot-password...).

Each works as a plain form without JavaScript; the islands add the live behaviour of the spec.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user

from ..errors import Invalid, ServiceError
from ..extensions import limiter
from ..identity.access import public, signed_in
from ..identity.passwords import (
    MAX_PASSWORD_LENGTH,
    PASSWORD_RULE_MESSAGE,
    password_rules,
    strength_label,
)
from ..inputs.fields import field_errors
from ..web.home import account_page_url, home_url
from ..web.links import sign_in_url
from . import google, limits, recovery, second_step, second_step_pages, service
from .landing import after_password, safe_next

bp = Blueprint("auth", __name__)

ROLES = [(1, "Admin"), (2, "Barangay Staff"), (3, "Operator"), (4, "Household")]


def _auth_failed():
    """`auth=fail` on any entry page sends the visitor to /login (spec section 2)."""
    if request.args.get("auth") == "fail" and request.endpoint != "auth.login":
        return redirect(url_for("auth.login", auth="fail"))
    return None


@bp.route("/login", methods=["GET", "POST"])
@limits.login
@public
def login():
    if request.method == "GET" and current_user.is_authenticated:
        return redirect(home_url())
    errors: dict[str, str] = {}
    typed = request.form.get("username", request.args.get("username", ""))
    username = typed[: service.LOGIN_MAX]
    if request.method == "POST":
        password = request.form.get("password", "")
        if not username.strip():
            errors["username"] = _("This field is required")
        elif len(typed.strip()) > service.LOGIN_MAX:  # no username or e-mail is longer: refused, not cut
            errors["username"] = _(
                "%(label)s must be at most %(max_length)s characters.",
                label=_("Username"),
                max_length=service.LOGIN_MAX,
            )
        if not password.strip():
            errors["password"] = _("This field is required")  # noqa: S105 - a message
        elif len(password) > MAX_PASSWORD_LENGTH:
            errors["password"] = _(
                "%(label)s must be at most %(max_length)s characters.",
                label=_("Password"),
                max_length=MAX_PASSWORD_LENGTH,
            )
        if not errors:
            try:
                account = service.authenticate(username, password)
            except service.SecondFactorRequired as err:  # the code next, on a second form
                second_step.hold(err.account, via="password", next_url=request.args.get("next"))
                return second_step_pages.code_form()
            except ServiceError as err:
                flash(err.message, "error")
            else:
                service.start_session(account, with_token=False)
                return after_password(account, request.args.get("next"))
    status = 400 if request.method == "POST" else 200
    return render_template(
        "auth/login.html", username=username, errors=errors, password_rule=_(PASSWORD_RULE_MESSAGE)
    ), status


@bp.post("/logout")
@public
def logout():
    service.end_session(None)
    return redirect(url_for("auth.login"))


@bp.get("/sessions")
@signed_in
def sessions_page():
    """The account's sessions are listed, and ended, on its profile."""
    return redirect(account_page_url(_anchor="sessions") or home_url())


@bp.route("/signup", methods=["GET", "POST"])
@limiter.limit("10 per minute", methods=["POST"])
@public
def signup():
    if (failed := _auth_failed()) is not None:
        return failed
    args = request.args
    sso = args.get("sso") == "google" or request.form.get("isSSO") == "true"
    values = {
        "role": request.form.get("role", ""),
        "firstName": request.form.get("firstName", args.get("firstName", ""))[:100],
        "lastName": request.form.get("lastName", args.get("lastName", ""))[:100],
        "email": request.form.get("email", args.get("email", ""))[:254],
        "areaId": request.form.get("areaId", ""),
    }
    errors: dict[str, str] = {}
    pending_email = None
    if request.method == "POST":
        role = values["role"].strip()
        form = service.SignupForm(
            role=(int(role) if role.isdecimal() and len(role) < 4 else (0 if role else None)),
            first_name=values["firstName"],
            last_name=values["lastName"],
            email=values["email"],
            barangay_id=values["areaId"][:20],
            is_sso=sso,
        )
        try:
            account = service.register(form, google=session.get(google.SESSION_KEY))
        except ServiceError as err:
            errors.update(field_errors(err))
            pending_email = err.extra.get("pendingEmail")
        else:
            target = "auth.pending_approval" if sso else "auth.email_verification"
            if sso:
                session.pop(google.SESSION_KEY, None)
            extra: dict[str, Any] = {"sso": "google"} if sso else {}
            return redirect(
                url_for(
                    target,
                    email=account.email,
                    username=account.username,
                    **extra,
                )
            )
    status = 400 if errors else 200
    return render_template(
        "auth/signup.html",
        values=values,
        errors=errors,
        roles=ROLES,
        barangays=service.barangays(),
        sso=sso,
        message=args.get("message", "")[:300],
        pending_email=pending_email,
    ), status


@bp.route("/email-verification", methods=["GET", "POST"])
@limiter.limit("10 per minute", methods=["POST"])
@public
def email_verification():
    if (failed := _auth_failed()) is not None:
        return failed
    token = request.values.get("token", "")[:200]
    email = request.args.get("email", "")[:254]
    if not token and not email:
        return redirect(url_for("auth.login"))
    result = None
    if request.method == "POST":  # no-JavaScript path: the button posts the token
        if request.form.get("action") == "resend":
            try:
                service.resend_verification(request.form.get("email", "")[:254])
                flash(_(service.RESENT), "info")
            except ServiceError as err:
                flash(err.message, "error")
            return redirect(url_for("auth.email_verification", email=request.form.get("email", "")[:254]))
        try:
            account = service.verify_email(token)
        except ServiceError as err:
            result = {"ok": False, "message": err.message}
        else:
            return redirect(
                url_for("auth.pending_approval", email=account.email, username=account.username, verified=1)
            )
    return render_template(
        "auth/email_verification.html",
        token=token,
        email=email,
        username=request.args.get("username", "")[:64],
        result=result,
    )


@bp.get("/pending-approval")
@limiter.limit("20 per minute", exempt_when=lambda: "check" not in request.args)
@public
def pending_approval():
    if (failed := _auth_failed()) is not None:
        return failed
    email = request.args.get("email", "")[:254]
    username = request.args.get("username", "")[:64]
    if not email and not username and not request.args.get("token"):
        return redirect(url_for("auth.login"))
    status = None
    if request.args.get("check"):  # no-JavaScript check-status
        try:
            _account, code, message = service.check_status(username or email)
            status = {"status": code, "message": message}
        except ServiceError as err:
            status = {"status": "error", "message": err.message}
    return render_template(
        "auth/pending_approval.html",
        email=email,
        username=username,
        sso=request.args.get("sso", "")[:20],
        status=status,
    )


@bp.route("/set-password", methods=["GET", "POST"])
@limiter.limit("10 per minute", methods=["POST"])
@public
def set_password():
    token = request.values.get("token", "")[:200]
    error = None
    try:
        account = recovery.set_password_account(token)
    except ServiceError as err:
        return render_template(
            "auth/set_password.html",
            token="",
            account=None,
            error=err.message,
            password_rule=_(PASSWORD_RULE_MESSAGE),
        ), 400
    if request.method == "POST":
        password = request.form.get("newPassword", "")[:300]
        if password != request.form.get("confirmPassword", ""):
            error = _("Passwords do not match")
        else:
            try:
                account = recovery.set_password(token, password)
            except ServiceError as err:
                error = err.message
            else:
                flash(_("Your password is set. You can now sign in."), "success")
                # The spec's client signs in on its own /login when SIBOL_CLIENT_URL is set.
                return redirect(sign_in_url(username=account.username))
    return render_template(
        "auth/set_password.html",
        token=token,
        account=account,
        error=error,
        password_rule=_(PASSWORD_RULE_MESSAGE),
    ), (400 if error else 200)


@bp.route("/choose-password", methods=["GET", "POST"])
@limiter.limit("10 per minute", methods=["POST"])
@signed_in
def choose_password():
    """After a sign-in with a temporary password the account sets its own here; `next` is where
    it goes then. Without a temporary password, the profile is where a password changes."""
    account = current_user
    if not account.password_is_temporary:
        return redirect(account_page_url() or home_url())
    target = request.values.get("next", "")[:500]
    error = None
    if request.method == "POST":
        try:
            recovery.replace_temporary_password(
                account, request.form.get("newPassword", "")[:300], request.form.get("confirmPassword", "")
            )
        except ServiceError as err:
            error = err.message
        else:
            flash(_("Your password is set."), "success")
            return redirect(safe_next(target))
    return render_template(
        "auth/choose_password.html",
        next=target,
        error=error,
        password_rule=_(PASSWORD_RULE_MESSAGE),
    ), (400 if error else 200)


# Forgot Password without JavaScript -----------------------------------------------------
# The dialog's steps as plain form posts on the sign-in page. Only the e-mail and the code travel
# between steps (hidden fields); the reset step hands both to the same service call as the API,
# which checks the code again, so nothing the browser sends is taken as "already verified".
def _forgot_page(step: str, status: int = 200, **fp):
    fp["step"] = step
    return render_template(
        "auth/login.html", username="", errors={}, password_rule=_(PASSWORD_RULE_MESSAGE), fp=fp
    ), status


def _form(name: str) -> str:
    return request.form.get(name, "")[:1000]


@bp.route("/forgot-password", methods=["GET", "POST"])
@limits.forgot_password
@public
def forgot_password():
    """Email step (and Resend code): the same answer whether or not the e-mail has an account."""
    if request.method == "GET":
        return redirect(url_for("auth.login", forgot=1))
    email = _form("email")
    try:
        code = recovery.request_reset(email)
    except ServiceError as err:
        return _forgot_page("email", 400, email=email[:254], error=err.message)
    info = _(service.RESET_SENT)
    if code and current_app.config.get("SIBOL_DEBUG_CODES"):
        info = f"Debug code: {code}"
    return _forgot_page("verify", email=email.strip(), info=info)


@bp.post("/forgot-password/verify")
@limits.verify_reset_code
@public
def forgot_verify():
    email, code = _form("email"), _form("code")
    try:
        recovery.verify_reset_code(email, code)
    except ServiceError as err:
        step = "email" if err.field == "email" else "verify"
        return _forgot_page(step, 400, email=email[:254], error=err.message)
    return _forgot_page("reset", email=email.strip(), code=code.strip(), info=_(service.CODE_OK))


@bp.post("/forgot-password/reset")
@limits.reset_password
@public
def forgot_reset():
    email, code = _form("email"), _form("code")
    password = request.form.get("newPassword", "")
    try:
        recovery.check_new_password(password)  # the rule first, as the dialog: no try spent
        if password != request.form.get("confirmPassword", ""):
            raise Invalid(_("Passwords do not match"), field="confirmPassword")
        recovery.reset_password(email, code, password)
    except ServiceError as err:
        step = {"email": "email", "code": "verify"}.get(err.field or "", "reset")
        checked = password[:256]
        return _forgot_page(
            step,
            400,
            email=email[:254],
            code=code.strip()[:6] if step == "reset" else "",
            error=err.message,
            pw_check={
                "rules": password_rules(checked),
                "label": strength_label(checked),
                "score": sum(password_rules(checked).values()),
            },
        )
    return _forgot_page("done")


@bp.post("/forgot-password/back")
@public
def forgot_back():
    """Back from the verify step (to the email step) or from the reset step (to the verify step)."""
    step = "verify" if request.form.get("to") == "verify" else "email"
    return _forgot_page(step, email=_form("email")[:254])
