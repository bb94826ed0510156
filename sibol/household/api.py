"""/api/household: schedules, leaderboard, rewards (multipart with an image), claims, point rule."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request
from flask_babel import gettext as _
from flask_login import current_user

from ..api import json_body, pick
from ..data.export import wants_csv
from ..data.listing import page_args, page_json
from ..errors import Invalid, Unsupported
from ..i18n.localtime import iso_utc
from ..identity.access import module_required
from ..inputs.uploads import image_response
from ..models import ModuleId
from . import credits, exports, service
from . import rewards as reward_service
from .serializers import claim_json, member_json, point_rule_json, reward_json, schedule_json

bp = Blueprint("household", __name__, url_prefix="/household")
# Registered on /api beside bp: /api/schedules, /api/areas, /api/operators for the spec's client.


def _filters(statuses: tuple[str, ...]) -> tuple[str, str | None]:
    q = request.args.get("q", "")
    if len(q) > 100:
        raise Invalid(_("q must be at most 100 characters."), field="q")
    status = (request.args.get("status") or None) if statuses else None
    if status is not None and status not in statuses:
        raise Invalid(_("status must be one of: %(value)s.", value=", ".join(statuses)), field="status")
    return q, status


@bp.get("/schedules")
@module_required(ModuleId.HOUSEHOLD, action="household.read")
def schedules():
    q, status = _filters(service.COLLECTION_STATUSES)
    if wants_csv():
        return exports.schedules_csv(q, status)
    page, per_page = page_args()
    return page_json(service.list_schedules(q, status, page, per_page), schedule_json)


def _schedule_body() -> dict:
    body = json_body()
    data: dict[str, Any] = {
        k: body[k]
        for k in ("maintenancePerson", "collectorContact", "dateOfCollection", "status", "totalWaste")
        if k in body
    }
    if "areas" in body or "area" in body:
        data["areas"] = pick(body, "areas", "area")
    return data


@bp.post("/schedules")
@module_required(ModuleId.HOUSEHOLD, action="household.schedule.write")
def create_schedule():
    schedule = service.create_schedule(_schedule_body())
    return {
        "success": True,
        "message": _("Collection schedule saved."),
        "schedule": schedule_json(schedule),
    }, 201


@bp.get("/schedules/<int:schedule_id>")
@module_required(ModuleId.HOUSEHOLD, action="household.read")
def schedule(schedule_id: int):
    return {"success": True, "schedule": schedule_json(service.get_schedule(schedule_id))}


@bp.route("/schedules/<int:schedule_id>", methods=["PUT", "PATCH"])
@module_required(ModuleId.HOUSEHOLD, action="household.schedule.write")
def update_schedule(schedule_id: int):
    data = _schedule_body()
    schedule = service.update_schedule(schedule_id, data)
    return {
        "success": True,
        "message": _("Collection schedule updated."),
        "schedule": schedule_json(schedule),
    }


@bp.get("/leaderboard")
@module_required(ModuleId.HOUSEHOLD, action="household.roster.read")
def leaderboard():
    q, status = _filters(service.MEMBER_STATUSES)
    if wants_csv():
        return exports.leaderboard_csv(q, status)
    page, per_page = page_args()
    return page_json(service.list_leaderboard(q, status, page, per_page), lambda row: member_json(*row))


@bp.get("/rewards")
@module_required(ModuleId.HOUSEHOLD, action="household.read")
def rewards():
    q, status = _filters(service.REWARD_STATUSES)
    if wants_csv():
        return exports.rewards_csv(q, status)
    page, per_page = page_args()
    return page_json(reward_service.list_rewards(q, status, page, per_page), reward_json)


@bp.post("/rewards")
@module_required(ModuleId.HOUSEHOLD, action="household.reward.write")
def create_reward():
    """multipart/form-data (reward, status, points or eligibility, area, image) or JSON without image."""
    image = None
    if request.mimetype == "multipart/form-data":
        form = request.form
        data = {
            "reward": form.get("reward"),
            "status": form.get("status"),
            "points": pick(form, "points", "eligibility"),
            "area": form.get("area"),
        }
        upload = request.files.get("image")
        if upload is not None and upload.filename:
            image = upload.stream
    elif request.is_json or not request.get_data(cache=True):
        body = json_body()
        data = {
            "reward": body.get("reward", body.get("name")),
            "status": body.get("status"),
            "points": pick(body, "points", "eligibility"),
            "area": body.get("area"),
        }
    else:
        raise Unsupported(_("Send the reward as multipart/form-data (with an image) or as JSON."))
    reward = reward_service.create_reward(data, image)
    return {"success": True, "message": _("Reward saved."), "reward": reward_json(reward)}, 201


@bp.get("/rewards/<int:reward_id>/image")
@module_required(ModuleId.HOUSEHOLD, action="household.read")
def reward_image(reward_id: int):
    path, mimetype = reward_service.reward_image(reward_id)
    return image_response(path, mimetype)


@bp.post("/rewards/<int:reward_id>/claims")
@module_required(ModuleId.HOUSEHOLD, action="household.claim.create")
def claim_reward(reward_id: int):
    body = json_body()
    claim = reward_service.claim_reward(reward_id, pick(body, "memberId", "member_id"))
    return {"success": True, "message": _("Reward claimed."), "claim": claim_json(claim)}, 201


@bp.post("/members/<int:member_id>/waste")
@module_required(ModuleId.HOUSEHOLD, action="household.waste.credit")
def credit_waste(member_id: int):
    """Credit a household for food waste; retried safely with an Idempotency-Key."""
    body = json_body()
    credit = credits.record_waste(member_id, body, actor_id=current_user.id)
    return {
        "memberId": credit.member.id,
        "wasteKg": credit.waste_g / 1000,
        "points": credit.points,
        "balance": credit.member.points,
        "collectedAt": iso_utc(credit.collected_at),
    }, 201


@bp.get("/claims")
@module_required(ModuleId.HOUSEHOLD, action="household.roster.read")
def claims():
    q, _rest = _filters(())
    if wants_csv():
        return exports.claims_csv(q)
    page, per_page = page_args()
    return page_json(reward_service.list_claims(q, page, per_page), claim_json)


@bp.get("/point-rule")
@module_required(ModuleId.HOUSEHOLD, action="household.read")
def point_rule():
    return {"success": True, "pointRule": point_rule_json(*service.point_rule())}


@bp.route("/point-rule", methods=["PUT", "PATCH"])
@module_required(ModuleId.HOUSEHOLD, action="household.point_rule.write")
def update_point_rule():
    body = json_body()
    rule = service.update_point_rule(body, actor_id=current_user.id)
    return {"success": True, "message": _("Point system saved."), "pointRule": point_rule_json(*rule)}
