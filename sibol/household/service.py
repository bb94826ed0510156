"""Household rules: collection schedules, leaderboard, rewards (with images), claims, point rule."""

from __future__ import annotations

import typing
from datetime import date, datetime, timedelta

from flask_babel import gettext as _
from sqlalchemy import Select, func, or_, select

from ..data.listing import Page, fetch_page, matches_any
from ..data.rows import get_by_id
from ..errors import Invalid, NotFound
from ..extensions import db
from ..inputs import rules
from ..inputs.fields import Errors
from ..machines import service as machine_areas
from ..models import (
    OPEN_COLLECTION_STATUSES,
    Barangay,
    CollectionArea,
    CollectionSchedule,
    CollectionStatus,
    HouseholdMember,
    PointRule,
    PointRuleChange,
    RewardStatus,
    utcnow,
)

COLLECTION_STATUSES = tuple(s.value for s in CollectionStatus)
REWARD_STATUSES = tuple(s.value for s in RewardStatus)
MEMBER_STATUSES = ("Active", "Inactive")
DEFAULT_RULE = (1000, 30)  # spec section 9: 1 kg of food waste = 30 points
UNCHANGED: typing.Any = object()  # update_schedule's collector_id when it stays as it is


def search_text(q: str | None) -> str:
    return " ".join((q or "").split())[:100]


# Collection schedules ---------------------------------------------------------------------------


def list_schedules(
    q: str | None = None, status: str | None = None, page: int = 1, per_page: int = 10
) -> Page:
    """Schedules by date of collection (latest first); q matches person, contact or an area."""
    conditions = _schedule_conditions(q, status)
    count = select(func.count(CollectionSchedule.id)).where(*conditions)
    return fetch_page(schedules_query(q, status), count, page, per_page)


def schedules_query(q: str | None = None, status: str | None = None) -> Select:
    """The schedules list_schedules pages through, unpaged."""
    return (
        select(CollectionSchedule)
        .where(*_schedule_conditions(q, status))
        .order_by(CollectionSchedule.collection_date.desc(), CollectionSchedule.id.desc())
    )


def _schedule_conditions(q: str | None, status: str | None) -> list:
    conditions = []
    q = search_text(q)
    if q:
        area_match = select(CollectionArea.schedule_id).where(matches_any(q, CollectionArea.name))
        people = matches_any(q, CollectionSchedule.maintenance_person, CollectionSchedule.collector_contact)
        conditions.append(or_(people, CollectionSchedule.id.in_(area_match)))
    if status in COLLECTION_STATUSES:
        conditions.append(CollectionSchedule.status == status)
    return conditions


def get_schedule(schedule_id: int) -> CollectionSchedule:
    schedule = get_by_id(CollectionSchedule, schedule_id)
    if schedule is None:
        raise NotFound(_("Collection schedule not found."))
    return schedule


def _schedule_values(data: dict, *, partial: bool = False) -> dict:
    """Checks a schedule's fields (spec names); with partial, only the fields present."""
    errors = Errors()
    values: dict = {}

    def has(name: str) -> bool:
        return not partial or name in data

    if has("maintenancePerson"):
        values["maintenance_person"] = rules.text(
            errors, data.get("maintenancePerson"), "maintenancePerson", _("Maintenance")
        )
    if has("collectorContact"):
        values["collector_contact"] = rules.contact(
            errors, data.get("collectorContact"), "collectorContact", _("Contact of Maintenance")
        )
    if has("areas"):
        values["areas"] = rules.area_list(errors, data.get("areas"), "areas", _("Area"))
    if has("dateOfCollection"):
        values["collection_date"] = rules.day(
            errors, data.get("dateOfCollection"), "dateOfCollection", _("Date of Collection")
        )
    if "status" in data:
        values["status"] = rules.choice(
            errors,
            data.get("status"),
            "status",
            _("Status"),
            COLLECTION_STATUSES,
            CollectionStatus.PENDING.value,
        )
    if "totalWaste" in data:
        values["total_waste_g"] = rules.grams(
            errors, data.get("totalWaste"), "totalWaste", _("Total waste"), required=False
        )
    errors.raise_if_any()
    return values


def _set_areas(schedule: CollectionSchedule, names: list[str]) -> None:
    """The schedule's chips. A chip naming a retired area is refused unless the schedule had it
    already (a retired area keeps its history but takes no new schedule)."""
    had = {name.lower() for name in schedule.area_names}
    retired = [name for name in machine_areas.retired_names(names) if name.lower() not in had]
    if retired:
        raise Invalid(_("%(name)s is retired: choose another area.", name=", ".join(retired)), field="areas")
    schedule.areas = [CollectionArea(name=name, position=i) for i, name in enumerate(names)]


def create_schedule(data: dict, *, collector_id: int | None = None) -> CollectionSchedule:
    """data: maintenancePerson, collectorContact, areas (list or comma text), dateOfCollection,
    optional status (Pending) and totalWaste (kg). Raises Invalid naming every bad field.
    collector_id: the collector's account, when the caller chose one (and checked it)."""
    values = _schedule_values(data)
    areas = values.pop("areas")
    schedule = CollectionSchedule(**values, collector_id=collector_id)
    _set_areas(schedule, areas)
    db.session.add(schedule)
    db.session.commit()
    return schedule


def update_schedule(
    schedule_id: int, data: dict, *, collector_id: typing.Any = UNCHANGED
) -> CollectionSchedule:
    """Changes the fields present in data (same names as create_schedule), and the collector's
    account when collector_id is given."""
    schedule = get_schedule(schedule_id)
    values = _schedule_values(data, partial=True)
    if "areas" in values:
        _set_areas(schedule, values.pop("areas"))
    for key, value in values.items():
        setattr(schedule, key, value)
    if collector_id is not UNCHANGED:
        schedule.collector_id = collector_id
    db.session.commit()
    return schedule


def delete_schedule(schedule_id: int) -> None:
    """Removes the schedule and its areas; another barangay's or a gone one is NotFound."""
    schedule = get_schedule(schedule_id)
    db.session.delete(schedule)
    db.session.commit()


def schedules_around(day: date) -> list[tuple[date, list[CollectionSchedule]]]:
    """The collection day page's schedules: (day, its schedules) for `day` and the day after."""
    days = (day, day + timedelta(days=1))
    found = db.session.scalars(
        select(CollectionSchedule)
        .where(CollectionSchedule.collection_date.in_(days))
        .order_by(CollectionSchedule.collection_date, CollectionSchedule.id)
    ).all()
    return [(d, [s for s in found if s.collection_date == d]) for d in days]


def members_for_collection() -> list[HouseholdMember]:
    """Every household of the barangay once, active ones first, then by name."""
    return list(
        db.session.scalars(
            select(HouseholdMember).order_by(
                HouseholdMember.is_active.desc(), HouseholdMember.name, HouseholdMember.id
            )
        )
    )


def collection_groups(
    days: list[tuple[date, list[CollectionSchedule]]],
) -> list[tuple[str | None, list[HouseholdMember]]]:
    """The collection day's households by area: (area, its households) for each area of the
    days' schedules that are not cancelled, in schedule order, each area once (names match
    without regard to case), then (None, every other household). Every household appears once;
    a group keeps members_for_collection's order (active first, then by name). Empty areas are
    left out."""
    scheduled: dict[str, str] = {}  # lower-cased name -> the name as first written
    for _day, schedules in days:
        for schedule in schedules:
            if schedule.status == CollectionStatus.CANCELLED:
                continue
            for name in schedule.area_names:
                scheduled.setdefault(name.strip().lower(), name.strip())
    by_area: dict[str, list[HouseholdMember]] = {key: [] for key in scheduled}
    rest: list[HouseholdMember] = []
    for member in members_for_collection():
        key = (member.area or "").strip().lower()
        (by_area[key] if key in by_area else rest).append(member)
    groups: list[tuple[str | None, list[HouseholdMember]]] = [
        (scheduled[key], members) for key, members in by_area.items() if members
    ]
    if rest:
        groups.append((None, rest))
    return groups


def upcoming_schedules(limit: int = 3) -> list[CollectionSchedule]:
    """The next pending (or under way) collections, earliest (overdue included) first: the
    dashboard's panel."""
    return list(
        db.session.scalars(
            select(CollectionSchedule)
            .where(CollectionSchedule.status.in_(OPEN_COLLECTION_STATUSES))
            .order_by(CollectionSchedule.collection_date, CollectionSchedule.id)
            .limit(limit)
        )
    )


# Leaderboard ------------------------------------------------------------------------------------


def list_leaderboard(
    q: str | None = None, status: str | None = None, page: int = 1, per_page: int = 10
) -> Page:
    """Members ranked by points (ties share a rank); rows are (member, rank). The rank is the
    member's place among all members, also when a search or filter hides others."""
    query, conditions = _leaderboard(q, status)
    count = select(func.count(HouseholdMember.id)).where(*conditions)
    return fetch_page(query, count, page, per_page, lambda row: (row[0], int(row[1])))


def leaderboard_query(q: str | None = None, status: str | None = None) -> Select:
    """The rows (member, rank) list_leaderboard pages through, unpaged."""
    return _leaderboard(q, status)[0]


def _leaderboard(q: str | None, status: str | None) -> tuple[Select, list]:
    ranked = select(
        HouseholdMember.id.label("member_id"),
        func.rank().over(order_by=HouseholdMember.points.desc()).label("rank"),
    ).subquery()
    conditions = []
    q = search_text(q)
    if q:
        conditions.append(matches_any(q, HouseholdMember.name, HouseholdMember.barangay))
    if status in MEMBER_STATUSES:
        conditions.append(HouseholdMember.is_active.is_(status == "Active"))
    query = (
        select(HouseholdMember, ranked.c.rank)
        .join(ranked, ranked.c.member_id == HouseholdMember.id)
        .where(*conditions)
        .order_by(ranked.c.rank, HouseholdMember.name, HouseholdMember.id)
    )
    return query, conditions


def get_member(member_id: int) -> HouseholdMember:
    member = get_by_id(HouseholdMember, member_id)
    if member is None:
        raise NotFound(_("Household member not found."))
    return member


def barangay_names() -> list[str]:
    """The barangays table's names, A to Z: the choices for a household's barangay."""
    return list(db.session.scalars(select(Barangay.name).order_by(Barangay.name)))


def create_member(data: dict) -> HouseholdMember:
    """data: name, barangay (a name from the barangays table), area (optional: where it is
    collected), points (starting points, whole, 0 or more; 0 when empty), status (Active or
    Inactive; Active when empty)."""
    errors = Errors()
    name = rules.text(errors, data.get("name"), "name", _("Name"))
    area = rules.text(errors, data.get("area"), "area", _("Area"), required=False)
    barangay = rules.text(errors, data.get("barangay"), "barangay", _("Barangay"))
    if barangay:
        known = {b.lower(): b for b in barangay_names()}
        if barangay.lower() in known:
            barangay = known[barangay.lower()]
        else:
            errors.add("barangay", _("Choose a barangay from the list."))
    points = rules.whole(errors, data.get("points"), "points", _("Starting points"), required=False)
    status = rules.choice(errors, data.get("status"), "status", _("Status"), MEMBER_STATUSES, "Active")
    errors.raise_if_any()
    member = HouseholdMember(
        name=name, barangay=barangay, area=area or "", points=points or 0, is_active=status == "Active"
    )
    db.session.add(member)
    db.session.commit()
    return member


# Point rule -------------------------------------------------------------------------------------


def point_rule() -> tuple[int, int]:
    """(grams of food waste, points) of the current equivalence; the spec's default if unset."""
    rule = db.session.scalar(select(PointRule).order_by(PointRule.id).limit(1))
    return (rule.waste_g, rule.points) if rule else DEFAULT_RULE


def _keep_change(old: tuple[int, int], waste_g: int, points: int) -> None:
    """Records the rule from now on, so a credit for an earlier collection earns by the rule
    of its time. The first change also records the rule it replaces, from the beginning."""
    now = utcnow()
    if db.session.scalar(select(PointRuleChange.id).limit(1)) is None:
        db.session.add(PointRuleChange(valid_from=datetime(2000, 1, 1), waste_g=old[0], points=old[1]))
    db.session.add(PointRuleChange(valid_from=now, waste_g=waste_g, points=points))


def update_point_rule(data: dict, *, actor_id: int | None = None) -> tuple[int, int]:
    """data: wasteKg (more than 0) and points (whole, 1 or more)."""
    errors = Errors()
    waste_g = rules.grams(errors, data.get("wasteKg"), "wasteKg", _("Total food waste"), positive=True)
    points = rules.whole(errors, data.get("points"), "points", _("Points"), minimum=1)
    errors.raise_if_any()
    rule = db.session.scalar(select(PointRule).order_by(PointRule.id).limit(1))
    old = (rule.waste_g, rule.points) if rule else DEFAULT_RULE
    if rule is None:
        rule = PointRule()
        db.session.add(rule)
    # raise_if_any() above: both are set.
    rule.waste_g, rule.points = typing.cast(int, waste_g), typing.cast(int, points)
    rule.updated_by_id = actor_id
    _keep_change(old, rule.waste_g, rule.points)
    db.session.commit()
    return rule.waste_g, rule.points
