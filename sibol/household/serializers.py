"""JSON shapes of the household entities, with the spec's field names (section 3)."""

from __future__ import annotations

from ..inputs.rules import kg_text
from ..models import Area, CollectionSchedule, HouseholdMember, Reward, RewardClaim
from .client_schedules import STATUS_IDS, Operator, mobile


def schedule_json(s: CollectionSchedule) -> dict:
    return {
        "id": s.id,
        "maintenancePerson": s.maintenance_person,
        "area": ", ".join(s.area_names),
        "areas": s.area_names,
        "status": s.status,
        "collectorContact": s.collector_contact,
        "dateOfCollection": s.collection_date.isoformat(),
        "totalWaste": None if s.total_waste_g is None else s.total_waste_g / 1000,
        "totalWasteText": "" if s.total_waste_g is None else f"{kg_text(s.total_waste_g)} kg",
    }


def client_schedule_json(s: CollectionSchedule, area_ids: dict[str, int]) -> dict:
    """A schedule for the spec's client: our fields and its database-style names beside them.
    Area is the ids of the schedule's areas (area_ids: lower-cased name -> id), or their names
    when one is not an area of the barangay (a name typed on our own form); AreaName shows them."""
    names = s.area_names
    ids = [area_ids.get(name.lower()) for name in names]
    return {
        **schedule_json(s),
        "Schedule_id": s.id,
        "Account_id": s.collector_id,
        "Collector": s.maintenance_person,
        "Contact": mobile(s.collector_contact) or s.collector_contact,
        "Area": ids if all(i is not None for i in ids) else names,
        "AreaName": ", ".join(names),
        "sched_stat_id": STATUS_IDS.get(s.status),  # type: ignore[call-overload]
        "Date_of_collection": s.collection_date.isoformat(),
    }


def client_area_json(area: Area, schedules: int) -> dict:
    return {
        "Area_id": area.id,
        "Area_Name": area.name,
        "name": area.name,
        "area": area.name,
        "schedules": schedules,
    }


def client_operator_json(operator: Operator) -> dict:
    account = operator.account
    return {
        "Account_id": account.id,
        "Username": account.username,
        "name": account.full_name,
        "maintenancePerson": account.full_name,
        "contact": operator.contact,
        "collectorContact": operator.contact,
        "schedules": operator.schedules,
    }


def member_json(member: HouseholdMember, rank: int) -> dict:
    return {
        "rank": rank,
        "id": member.id,
        "name": member.name,
        "barangay": member.barangay,
        "area": member.barangay,
        "points": member.points,
        "status": "Active" if member.is_active else "Inactive",
    }


def reward_image_url(reward: Reward, *, api: bool = True) -> str | None:
    if not reward.image_file:
        return None
    prefix = "/api/household" if api else "/household"
    return f"{prefix}/rewards/{reward.id}/image"


def reward_json(reward: Reward) -> dict:
    return {
        "id": reward.id,
        "reward": reward.name,
        "name": reward.name,
        "area": reward.area,
        "points": reward.points_required,
        "eligibility": f"{reward.points_required} points",
        "status": reward.status,
        "image": reward_image_url(reward),
    }


def claim_json(claim: RewardClaim) -> dict:
    return {
        "id": claim.id,
        "name": claim.member.name,
        "memberId": claim.member_id,
        "reward": claim.reward.name,
        "rewardId": claim.reward_id,
        "points": claim.points_spent,
        "claimedAt": claim.claimed_at.isoformat() + "Z",
        "state": claim.state,  # open (points reserved), redeemed or cancelled
        "code": claim.code,
    }


def point_rule_json(waste_g: int, points: int) -> dict:
    return {
        "wasteKg": waste_g / 1000,
        "points": points,
        "text": f"{kg_text(waste_g)} kg of food waste = {points} points",
    }
