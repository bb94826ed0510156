"""/api/household/members/<id>/reminders: staff record a household's consent to reminders on its
member record (the household agreed in person), or read what it agreed to.
/api/reminders/inbound: the SMS gateway forwards the replies it receives; STOP ends the SMS
reminders to that number."""

from __future__ import annotations

import hmac

from flask import Blueprint, abort, current_app, request
from flask_babel import gettext as _
from flask_login import current_user

from ..api import json_body
from ..errors import Forbidden, Invalid, NotFound
from ..extensions import db
from ..identity.access import module_required, public
from ..models import HouseholdMember, ModuleId, ReminderSubscription
from . import service, texts

bp = Blueprint("reminders", __name__)


def _member(member_id: int) -> HouseholdMember:
    member = db.session.get(HouseholdMember, member_id)  # scoped: another barangay's is None
    if member is None:
        raise NotFound(_("Household not found."), field="memberId")
    return member


def subscription_json(sub: ReminderSubscription | None) -> dict | None:
    if sub is None:
        return None
    return {
        "bySms": sub.by_sms,
        "byEmail": sub.by_email,
        "mobile": sub.mobile,
        "email": sub.email,
        "language": sub.language,
        "consentAt": sub.consent_at.isoformat() + "Z",
        "stopped": sub.stopped_at is not None,
    }


@bp.get("/household/members/<int:member_id>/reminders")
@module_required(ModuleId.HOUSEHOLD, action="household.roster.read")
def read(member_id: int):
    return {"success": True, "reminders": subscription_json(service.subscription_of(_member(member_id)))}


@bp.put("/household/members/<int:member_id>/reminders")
@module_required(ModuleId.HOUSEHOLD, action="household.member.write")
def record(member_id: int):
    """Body: bySms, byEmail, mobile, email, language (fil|en), consent (must be true)."""
    sub = service.subscribe(_member(member_id), json_body(), current_user)
    return {"success": True, "reminders": subscription_json(sub)}


def _inbound_fields() -> dict:
    """The forwarded reply: form fields (what gateways post) or a JSON object."""
    if request.is_json:
        return json_body()
    return request.form.to_dict()


@bp.post("/reminders/inbound")
@public
def inbound():
    """Body: number (the sender's mobile), message (the text they sent); the shared secret
    SIBOL_SMS_INBOUND_SECRET in the X-Sibol-Secret header or the `secret` query parameter.
    Without the setting the endpoint does not exist (404); a wrong secret is a 403."""
    expected = current_app.config.get("SIBOL_SMS_INBOUND_SECRET")
    if not expected:
        abort(404)
    given = request.headers.get("X-Sibol-Secret") or request.args.get("secret") or ""
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise Forbidden(_("The gateway's secret is wrong."))
    data = _inbound_fields()
    number, message = data.get("number"), data.get("message")
    if not isinstance(number, str) or not number.strip():
        raise Invalid(_("Send the sender's number."), field="number")
    if not isinstance(message, str):
        raise Invalid(_("Send the message text."), field="message")
    if message.strip().casefold() != "stop":
        return {"success": True, "stopped": 0}  # any other reply is not ours to act on
    try:
        mobile = texts.clean_mobile(texts.local_form(number))
    except Invalid:
        return {"success": True, "stopped": 0}  # not a Philippine mobile: none of ours
    return {"success": True, "stopped": service.stop_sms_for(mobile)}


inbound.sibol_csrf_exempt = True  # type: ignore[attr-defined]  # authenticated by its secret
