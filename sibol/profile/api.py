"""/api/me: the signed-in account's profile, password, sign-ins and sessions."""

from __future__ import annotations

from flask import Blueprint
from flask_babel import gettext as _
from flask_login import current_user

from ..api import json_body, text_field
from ..api.serializers import user_json
from ..identity.access import enrolment_step, signed_in
from . import limits, service, two_factor

bp = Blueprint("profile", __name__)


def _me() -> dict:
    return {
        **user_json(current_user),
        "contactNumber": current_user.contact_number,
        "pendingEmail": service.pending_email(current_user),
    }


@bp.get("/me")
@signed_in
def me():
    return {"success": True, "user": _me()}


@bp.put("/me")
@signed_in
def update_me():
    body = json_body()
    email = body.pop("email", None)
    data = {k: body[k] for k in ("firstName", "lastName", "contactNumber") if k in body}
    if email is not None and email != current_user.email:
        # Checked before anything is saved, so a bad address leaves the name unchanged too.
        service.check_new_email(current_user, email)
    service.update_profile(current_user, data)
    message = _("Profile saved.")
    if email is not None and email != current_user.email:
        sent_to = service.request_email_change(current_user, email)
        message = _(
            "Profile saved. We sent a link to %(sent_to)s; your e-mail changes when you open it.",
            sent_to=sent_to,
        )
    return {"success": True, "message": message, "user": _me()}


@bp.post("/me/password")
@limits.change_password
@signed_in
def change_password():
    body = json_body()
    service.change_password(current_user, body.get("currentPassword"), body.get("newPassword"))
    return {"success": True, "message": _("Password changed. Every other session and token has ended.")}


@bp.get("/me/sign-ins")
@signed_in
def sign_ins():
    return {
        "success": True,
        "data": [
            {"at": s.at.isoformat() + "Z", "address": s.address, "method": s.method}
            for s in service.recent_sign_ins(current_user)
        ],
    }


@bp.get("/me/sessions")
@signed_in
def sessions():
    return {
        "success": True,
        "data": [
            {
                "kind": s.kind,
                "startedAt": s.started.isoformat() + "Z" if s.started else None,
                "lastUsedAt": s.last_used.isoformat() + "Z" if s.last_used else None,
                "current": s.current,
                "userAgent": s.user_agent,
                "address": s.address,
                **({"id": s.id, "name": s.name} if s.kind == "browser" else {}),
            }
            for s in service.active_sessions(current_user)
        ],
    }


@bp.post("/me/sessions/<int:session_id>/sign-out")
@signed_in
def sign_out_session(session_id: int):
    """Ends one of the account's own browser sessions and the tokens its sign-in issued."""
    service.sign_out_session(current_user, session_id)
    return {"success": True, "message": _("That browser is signed out.")}


@bp.post("/me/sign-out-everywhere")
@signed_in
def sign_out_everywhere():
    ended, revoked = service.sign_out_everywhere(current_user)
    return {
        "success": True,
        "message": _("Every session and token of your account has ended."),
        "endedSessions": ended,
        "revokedTokens": revoked,
    }


# Second factor (an authenticator app): the routes an account that must set it up may call.
@bp.get("/me/totp")
@enrolment_step
@signed_in
def totp_status():
    return {"success": True, **two_factor.status(current_user)}


@bp.post("/me/totp")
@limits.two_factor
@enrolment_step
@signed_in
def start_totp():
    secret, uri = two_factor.start(current_user)
    return {"success": True, "secret": secret, "otpauthUri": uri}, 201


@bp.post("/me/totp/confirm")
@limits.two_factor
@enrolment_step
@signed_in
def confirm_totp():
    code = text_field(json_body(), "code", label=_("Code"), max_length=20)
    codes = two_factor.confirm(current_user, code)
    return {
        "success": True,
        "message": _(
            "Two-step sign-in is on. Keep your recovery codes somewhere safe: they are shown only once."
        ),
        "recoveryCodes": codes,
    }


@bp.delete("/me/totp")
@limits.two_factor
@enrolment_step
@signed_in
def disable_totp():
    body = json_body()
    password = text_field(body, "password", label=_("Password"), max_length=256, strip=False)
    code = text_field(body, "code", label=_("Code"), max_length=40)
    two_factor.disable(current_user, password, code)
    return "", 204
