"""/api/auth/* and /api/modules/allowed (spec section 7)."""

from __future__ import annotations

from functools import cache

from flask import Blueprint, current_app, session
from flask_babel import gettext as _
from flask_login import current_user

from ..api import json_body, pick, text_field
from ..api.serializers import allowed_module_json, password_state, user_json
from ..errors import Invalid
from ..extensions import limiter
from ..identity import totp
from ..identity.access import public, signed_in
from ..identity.tokens import bearer_from_request
from ..models import MODULES, Module, ModuleId
from . import limits, recovery, service

bp = Blueprint("auth", __name__)

GOOGLE_SESSION_KEY = "sibol_google"  # see google.SESSION_KEY


@bp.post("/auth/login")
@limits.login
@public
def login():
    body = json_body()
    username = text_field(body, "username", label=_("Username"), max_length=254)
    password = text_field(body, "password", label=_("Password"), max_length=256, strip=False)
    # The authenticator's code or a recovery code, for an account that has a second factor.
    second_factor = text_field(body, "totp", label=_("Code"), required=False, max_length=40)
    account = service.authenticate(username, password, second_factor)
    token = service.start_session(account, with_token=True)
    enrolment = {"totpEnrollmentRequired": True} if totp.must_enrol(account) else {}
    return {
        "success": True,
        "message": _("Login successful"),
        "token": token,
        "accessToken": token,
        "user": user_json(account),
        # A temporary password (an administrator's, sibol/admin/service.py) signs in until then.
        **password_state(account),
        # SIBOL_REQUIRE_2FA asks this account for a second factor it has not set up: the token
        # opens /api/me/totp* only until it has.
        **enrolment,
    }


@bp.post("/auth/logout")
@public
def logout():
    service.end_session(bearer_from_request())
    return {"success": True, "message": _("Signed out")}


@bp.get("/modules/allowed")
@signed_in
def allowed_modules():
    """A plain list of entries carrying key, name and path: a shape the spec names (section 3).
    (An object {success, modules} would be read by the spec's client as a map of two modules.)
    No entry carries `id`: see allowed_module_json."""
    # The modules themselves are the fixed reference rows seeded from MODULES: only the account's
    # module ids are needed, which a bearer request's account carries (sibol/identity/tokens.py).
    return [dict(_module_json(module_id)) for module_id in sorted(current_user.module_ids)]


@cache
def _module_json(module_id: int) -> dict:
    key, name, path = MODULES[ModuleId(module_id)]
    return allowed_module_json(Module(id=module_id, key=key, name=name, path=path))


@bp.get("/auth/barangays")
@public
def barangays():
    return {"success": True, "barangays": [{"id": b.id, "name": b.name} for b in service.barangays()]}


def role_value(body: dict) -> int | None:
    raw = pick(body, "role", "roleId", "Roles")
    if raw is None or raw == "":
        return None
    if isinstance(raw, bool):
        return 0
    if isinstance(raw, str) and raw.strip().isdecimal() and len(raw.strip()) < 4:
        return int(raw.strip())
    if isinstance(raw, int) or isinstance(raw, float) and raw.is_integer():
        return int(raw)
    return 0  # present but not a role id: refused with the role message


def flag(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes"}
    return value is True or value == 1


def signup_form(body: dict) -> service.SignupForm:
    barangay = pick(body, "areaId", "Area_id", "barangayId", "Barangay_id")
    if barangay is not None and not isinstance(barangay, (str, int, float)):
        raise Invalid(_("Barangay must be a valid number"), field="areaId")
    if isinstance(barangay, str) and len(barangay) > 20:
        raise Invalid(_("Barangay must be a valid number"), field="areaId")
    # The spec's client sends the username it derived; ours is derived again from the e-mail, but
    # one the spec's own table could not hold (50 characters) is refused rather than ignored.
    text_field(body, "username", "Username", label=_("Username"), required=False, max_length=50)
    return service.SignupForm(
        role=role_value(body),
        first_name=text_field(
            body, "firstName", "FirstName", label=_("First name"), required=False, max_length=100
        )
        or "",
        last_name=text_field(
            body, "lastName", "LastName", label=_("Last name"), required=False, max_length=100
        )
        or "",
        email=text_field(body, "email", "Email", label=_("Email"), required=False, max_length=254) or "",
        barangay_id=barangay,
        is_sso=flag(pick(body, "isSSO", "sso", default=False)),
    )


@bp.post("/auth/signup")
@limiter.limit("10 per minute")
@public
def signup():
    form = signup_form(json_body())
    account = service.register(form, google=session.get(GOOGLE_SESSION_KEY))
    if form.is_sso:
        session.pop(GOOGLE_SESSION_KEY, None)
        message = _("Registration submitted. Your account is awaiting admin approval.")
    else:
        message = _("Registration successful. Check your email to verify your address.")
    return {
        "success": True,
        "message": message,
        "username": account.username,
        "email": account.email,
        "status": account.status,
    }, 201


def _email(body: dict) -> str:
    return text_field(body, "email", label=_("Email"), max_length=254)


def _email_and_code(body: dict) -> tuple[str, str]:
    """The e-mail address and the six-digit code of the password-reset steps."""
    return _email(body), text_field(body, "code", label=_("Code"), max_length=20)


def _new_password(body: dict) -> str:
    """The new password as typed (spaces kept); the spec's client sends `newPassword`."""
    return text_field(body, "newPassword", "password", label=_("New password"), max_length=256, strip=False)


@bp.post("/auth/resend-verification")
@limiter.limit("5 per minute")
@public
def resend_verification():
    body = json_body()
    email = _email(body)
    service.resend_verification(email)
    return {"success": True, "message": _(service.RESENT)}


@bp.get("/auth/verify-email/<path:token>")
@limiter.limit("20 per minute")
@public
def verify_email(token: str):
    account = service.verify_email(token)
    return {
        "success": True,
        "message": _("Email verified. Your account is awaiting admin approval."),
        "email": account.email,
        "username": account.username,
        "status": account.status,
    }


@bp.get("/auth/check-status/<path:username>")
@limiter.limit("20 per minute")
@public
def check_status(username: str):
    account, status, message = service.check_status(username)
    return {"success": True, "status": status, "message": message, "username": account.username}


@bp.post("/auth/forgot-password")
@limits.forgot_password
@public
def forgot_password():
    body = json_body()
    email = _email(body)
    code = recovery.request_reset(email)
    answer = {"success": True, "message": _(service.RESET_SENT)}
    if code and current_app.config.get("SIBOL_DEBUG_CODES"):
        answer["debugCode"] = code
    return answer


@bp.post("/auth/verify-reset-code")
@limits.verify_reset_code
@public
def verify_reset_code():
    body = json_body()
    email, code = _email_and_code(body)
    recovery.verify_reset_code(email, code)
    return {"success": True, "message": _(service.CODE_OK)}


@bp.post("/auth/reset-password")
@limits.reset_password
@public
def reset_password():
    body = json_body()
    email, code = _email_and_code(body)
    password = _new_password(body)
    recovery.reset_password(email, code, password)
    return {"success": True, "message": _(service.RESET_OK)}


@bp.post("/auth/set-password")
@limiter.limit("10 per minute")
@public
def set_password():
    body = json_body()
    token = text_field(body, "token", label=_("Token"), max_length=200)
    password = _new_password(body)
    account = recovery.set_password(token, password)
    return {
        "success": True,
        "message": _("Your password is set. You can now sign in."),
        "username": account.username,
    }
