"""CSV exports of the Household tables (schedules, leaderboard, rewards, claimed rewards): the
queries their tables page through, unpaged, with the tables' columns (sibol/data/export.py)."""

from __future__ import annotations

from flask import Response
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, select
from sqlalchemy.orm import contains_eager

from ..data.export import stream_rows, stream_scalars
from ..inputs.rules import kg_text
from ..models import CollectionArea, CollectionSchedule, Reward, RewardClaim
from ..web.downloads import csv_response
from . import rewards, service

SCHEDULE_HEADERS = (
    _l("Maintenance Person"),
    _l("Area"),
    _l("Status"),
    _l("Collector Contact"),
    _l("Date of Collection"),
    _l("Total Waste (kg)"),
)
LEADERBOARD_HEADERS = (_l("#"), _l("Name"), _l("Barangay"), _l("Points"), _l("Status"))
REWARD_HEADERS = (_l("#"), _l("Name"), _l("Area"), _l("Points"), _l("Status"))
CLAIM_HEADERS = (_l("#"), _l("Name"), _l("Reward"), _l("Points"), _l("Date Claimed"), _l("State"), _l("Code"))
CLAIM_STATES = {"open": _l("Waiting for pick-up"), "redeemed": _l("Redeemed"), "cancelled": _l("Cancelled")}


def schedules_csv(q: str | None, status: str | None) -> Response:
    # The area chips as one cell, in the same statement (no second query while streaming).
    areas = (
        select(func.aggregate_strings(CollectionArea.name, ", "))
        .where(CollectionArea.schedule_id == CollectionSchedule.id)
        .scalar_subquery()
    )
    statement = service.schedules_query(q, status).add_columns(areas)

    def shape(row):
        s, area_names = row
        waste = None if s.total_waste_g is None else kg_text(s.total_waste_g)
        return (s.maintenance_person, area_names, s.status, s.collector_contact, s.collection_date, waste)

    return csv_response("collection-schedules", SCHEDULE_HEADERS, stream_rows(statement), shape)


def leaderboard_csv(q: str | None, status: str | None) -> Response:
    def shape(row):
        member, rank = row
        return (
            int(rank),
            member.name,
            member.barangay,
            member.points,
            "Active" if member.is_active else "Inactive",
        )

    return csv_response(
        "leaderboard", LEADERBOARD_HEADERS, stream_rows(service.leaderboard_query(q, status)), shape
    )


def rewards_csv(q: str | None, status: str | None) -> Response:
    numbers = iter(range(1, 2**63))

    def shape(r: Reward):
        return (next(numbers), r.name, r.area or "All areas", r.points_required, r.status)

    return csv_response("rewards", REWARD_HEADERS, stream_scalars(rewards.rewards_query(q, status)), shape)


def claims_csv(q: str | None) -> Response:
    # The table's joins already hold the member and reward: load them from there.
    statement = rewards.claims_query(q).options(
        contains_eager(RewardClaim.member), contains_eager(RewardClaim.reward)
    )
    numbers = iter(range(1, 2**63))

    def shape(c: RewardClaim):
        state = str(CLAIM_STATES.get(c.state, c.state))
        return (next(numbers), c.member.name, c.reward.name, c.points_spent, c.claimed_at, state, c.code)

    return csv_response("claimed-rewards", CLAIM_HEADERS, stream_scalars(statement), shape)
