"""/api/me/household (a Household account's own data and claims) and the staff side of claims:
redeem by code, cancel, the account link of a member."""

from __future__ import annotations

from flask import Blueprint
from flask_babel import gettext as _
from flask_login import current_user

from ...api import json_body, pick
from ...data.listing import page_args
from ...i18n.localtime import today
from ...identity.access import module_required
from ...models import ModuleId
from .. import service as household
from . import claims, resident
from .pages import qr_response
from .serializers import collection_json, my_claim_json, overview_json, staff_claim_json

bp = Blueprint("residents", __name__)


@bp.get("/me/household")
@module_required(ModuleId.HOUSEHOLD, action="resident.read")
def my_household():
    view = resident.overview(current_user, today())
    return {"success": True, **overview_json(view)}


@bp.get("/me/household/collections")
@module_required(ModuleId.HOUSEHOLD, action="resident.read")
def my_collections():
    member = resident.member_of(current_user)
    page, per_page = page_args()
    result = resident.collections(member, page, per_page)
    return {
        "success": True,
        "data": [collection_json(row) for row in result.rows],
        "total": result.total,
        "page": result.page,
        "per_page": result.per_page,
    }


@bp.get("/me/household/claims")
@module_required(ModuleId.HOUSEHOLD, action="resident.read")
def my_claims():
    member = resident.member_of(current_user)
    return {"success": True, "data": [my_claim_json(c) for c in claims.claims_of(member)]}


@bp.post("/me/household/claims")
@module_required(ModuleId.HOUSEHOLD, action="resident.claim")
def request_claim():
    body = json_body()
    member = resident.member_of(current_user)
    claim = claims.reserve(member, pick(body, "rewardId", "reward_id"))
    return {
        "success": True,
        "message": _(
            "%(name)s reserved: show code %(code)s at pick-up.", name=claim.reward.name, code=claim.code
        ),
        "claim": my_claim_json(claim),
        "points": member.points,
    }, 201


@bp.get("/me/household/claims/<int:claim_id>")
@module_required(ModuleId.HOUSEHOLD, action="resident.read")
def my_claim(claim_id: int):
    claim = claims.claim_of(resident.member_of(current_user), claim_id)
    return {"success": True, "claim": my_claim_json(claim)}


@bp.get("/me/household/claims/<int:claim_id>/qr.png")
@module_required(ModuleId.HOUSEHOLD, action="resident.read")
def my_claim_qr(claim_id: int):
    return qr_response(resident.member_of(current_user), claim_id)


@bp.post("/me/household/claims/<int:claim_id>/cancel")
@module_required(ModuleId.HOUSEHOLD, action="resident.claim")
def cancel_my_claim(claim_id: int):
    member = resident.member_of(current_user)
    claim = claims.cancel(claims.claim_of(member, claim_id))
    return {
        "success": True,
        "message": _("Claim cancelled; the points are back."),
        "claim": my_claim_json(claim),
        "points": claim.member.points,
    }


# Staff and operators ---------------------------------------------------------------------------


@bp.post("/household/claims/redeem")
@module_required(ModuleId.HOUSEHOLD, action="household.claim.redeem")
def redeem_claim():
    body = json_body()
    claim = claims.redeem(claims.find_by_code(body.get("code")), current_user)
    return {
        "success": True,
        "message": _("%(name)s handed over to %(name2)s.", name=claim.reward.name, name2=claim.member.name),
        "claim": staff_claim_json(claim),
    }


@bp.get("/household/claims/by-code/<code>")
@module_required(ModuleId.HOUSEHOLD, action="household.claim.redeem")
def claim_by_code(code: str):
    return {"success": True, "claim": staff_claim_json(claims.find_by_code(code))}


@bp.post("/household/claims/<int:claim_id>/cancel")
@module_required(ModuleId.HOUSEHOLD, action="household.claim.cancel")
def cancel_claim(claim_id: int):
    claim = claims.cancel(claims.get_claim(claim_id))
    return {
        "success": True,
        "message": _("Claim cancelled; the points are back."),
        "claim": staff_claim_json(claim),
    }


def _link_json(member) -> dict:
    account = resident.linked_account(member)
    return {
        "memberId": member.id,
        "name": member.name,
        "account": None if account is None else {"id": account.id, "username": account.username},
    }


@bp.get("/household/members/<int:member_id>/account")
@module_required(ModuleId.HOUSEHOLD, action="household.roster.read")
def member_account(member_id: int):
    return {"success": True, **_link_json(household.get_member(member_id))}


@bp.put("/household/members/<int:member_id>/account")
@module_required(ModuleId.HOUSEHOLD, action="household.member.write")
def link_member_account(member_id: int):
    body = json_body()
    member = resident.link_account(member_id, body.get("username"))
    return {"success": True, "message": _("Account link saved."), **_link_json(member)}
