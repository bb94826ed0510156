"""/api/household/members/<id>/reminders: staff record a household's consent to reminders on its
member record (the household agreed in person), or read what it agreed to."""

from __future__ import annotations

from flask import Blueprint
from flask_babel import gettext as _
from flask_login import current_user

from ..api import json_body
from ..errors import NotFound
from ..extensions import db
from ..identity.access import module_required
from ..models import HouseholdMember, ModuleId, ReminderSubscription
from . import service

bp = Blueprint("reminders", __name__, url_prefix="/household/members")


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


@bp.get("/<int:member_id>/reminders")
@module_required(ModuleId.HOUSEHOLD, action="household.roster.read")
def read(member_id: int):
    return {"success": True, "reminders": subscription_json(service.subscription_of(_member(member_id)))}


@bp.put("/<int:member_id>/reminders")
@module_required(ModuleId.HOUSEHOLD, action="household.member.write")
def record(member_id: int):
    """Body: bySms, byEmail, mobile, email, language (fil|en), consent (must be true)."""
    sub = service.subscribe(_member(member_id), json_body(), current_user)
    return {"success": True, "reminders": subscription_json(sub)}
