"""JSON shapes of a resident's view and of claims with codes."""

from __future__ import annotations

from ...inputs.rules import kg_text
from ...models import MemberCollection, RewardClaim
from ..serializers import reward_json, schedule_json
from .resident import BoardRow, Overview


def my_claim_json(claim: RewardClaim, *, api_prefix: str = "/api/me/household") -> dict:
    return {
        "id": claim.id,
        "reward": claim.reward.name,
        "rewardId": claim.reward_id,
        "points": claim.points_spent,
        "state": claim.state,
        "code": claim.code,
        "qr": f"{api_prefix}/claims/{claim.id}/qr.png" if claim.code else None,
        "claimedAt": claim.claimed_at.isoformat() + "Z",
        "redeemedAt": claim.redeemed_at.isoformat() + "Z" if claim.redeemed_at else None,
        "cancelledAt": claim.cancelled_at.isoformat() + "Z" if claim.cancelled_at else None,
    }


def staff_claim_json(claim: RewardClaim) -> dict:
    return {
        **my_claim_json(claim, api_prefix="/api/household"),
        "memberId": claim.member_id,
        "name": claim.member.name,
    }


def collection_json(row: MemberCollection) -> dict:
    return {
        "date": row.collected_on.isoformat(),
        "wasteKg": row.waste_g / 1000,
        "wasteText": f"{kg_text(row.waste_g)} kg",
        "points": row.points,
    }


def board_json(row: BoardRow) -> dict:
    return {"rank": row.rank, "name": row.name, "points": row.points, "isMe": row.is_me}


def overview_json(view: Overview) -> dict:
    member = view.member
    return {
        "impactThisYear": view.impact.as_json(),
        "household": {
            "id": member.id,
            "name": member.name,
            "barangay": member.barangay,
            "status": "Active" if member.is_active else "Inactive",
        },
        "points": member.points,
        "reservedPoints": view.reserved,
        "nextCollection": schedule_json(view.next_collection) if view.next_collection else None,
        "nextCollectionIsForMyArea": view.next_is_for_my_area,
        "affordableRewards": [reward_json(r) for r in view.rewards],
        "claims": [my_claim_json(c) for c in view.claims],
        "recentCollections": [collection_json(c) for c in view.recent],
        "leaderboard": [board_json(r) for r in view.leaderboard],
    }
