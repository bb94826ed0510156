"""Crediting households for food waste handed in: one credit (the page's dialog, the API) or a
collection day's lot, each by the Point System rule in force when the waste was collected.

A credit may be entered after the fact (an entry made offline is sent when the signal returns),
so it carries the moment of collection: at most MAX_AGE back, never in the future (beyond a
phone clock's small drift, CLOCK_DRIFT). The member's points grow in the database (two credits
at once both count) and the member's history gets its row, in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask_babel import gettext as _
from sqlalchemy import select, update

from ..errors import Invalid, NotFound
from ..extensions import db
from ..i18n.localtime import to_local
from ..inputs import rules
from ..inputs.fields import Errors, is_blank
from ..models import HouseholdMember, MemberCollection, PointRuleChange, utcnow
from . import service

MAX_AGE = timedelta(days=7)
CLOCK_DRIFT = timedelta(minutes=2)


@dataclass(frozen=True)
class Credit:
    member: HouseholdMember
    waste_g: int
    points: int
    collected_at: datetime  # naive UTC


def rule_at(moment: datetime) -> tuple[int, int]:
    """(grams, points) of the Point System in force at `moment` (naive UTC): the last change
    made by then; the saved rule when no change is recorded before it."""
    change = db.session.scalar(
        select(PointRuleChange)
        .where(PointRuleChange.valid_from <= moment)
        .order_by(PointRuleChange.valid_from.desc(), PointRuleChange.id.desc())
        .limit(1)
    )
    return (change.waste_g, change.points) if change else service.point_rule()


def collected_at(errors: Errors, value: object, field: str = "collectedAt") -> datetime:
    """The moment of collection as sent (ISO 8601 with its offset) -> naive UTC; now if absent."""
    now = utcnow()
    if value is None or value == "":
        return now
    if not isinstance(value, str) or len(value) > 40:
        errors.add(
            field, _("%(field)s must be a date and time such as 2026-11-25T07:30:00+08:00.", field=field)
        )
        return now
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        errors.add(
            field, _("%(field)s must be a date and time such as 2026-11-25T07:30:00+08:00.", field=field)
        )
        return now
    if parsed.tzinfo is None:
        errors.add(field, _("%(field)s must carry its time zone offset (such as +08:00).", field=field))
        return now
    moment = parsed.astimezone(UTC).replace(tzinfo=None)
    if moment > now + CLOCK_DRIFT:
        errors.add(field, _("%(field)s cannot be in the future.", field=field))
    elif moment < now - MAX_AGE:
        errors.add(field, _("%(field)s can be at most 7 days ago.", field=field))
    return moment


def _points(waste_g: int, moment: datetime, field: str) -> int:
    rule_g, rule_points = rule_at(moment)
    earned = waste_g * rule_points // rule_g
    if earned < 1:
        raise Invalid(
            _(
                "%(kg_text)s kg earns no points: the Point System gives %(rule_points)s points for %(kg_text2)s kg.",
                kg_text=rules.kg_text(waste_g),
                rule_points=rule_points,
                kg_text2=rules.kg_text(rule_g),
            ),
            field=field,
        )
    return earned


def _add(member: HouseholdMember, waste_g: int, earned: int, moment: datetime, field: str, actor_id) -> None:
    """Adds the points in the database and the history row; the caller commits."""
    if member.points + earned > rules.MAX_POINTS:
        raise Invalid(
            _("A member can hold at most %(max_points)s points.", max_points=format(rules.MAX_POINTS, ",")),
            field=field,
        )
    db.session.execute(
        update(HouseholdMember)
        .where(HouseholdMember.id == member.id)
        .values(points=HouseholdMember.points + earned)
        .execution_options(synchronize_session=False)
    )
    db.session.add(
        MemberCollection(
            member_id=member.id,
            collected_on=to_local(moment.replace(tzinfo=UTC)).date(),
            waste_g=waste_g,
            points=earned,
            recorded_by_id=actor_id,
        )
    )


def record_waste(member_id: int, data: dict, *, actor_id: int | None = None) -> Credit:
    """Credits one member. data: wasteKg (more than 0), collectedAt (optional, see collected_at).
    Raises NotFound for a member outside the barangay, Invalid naming the field (memberId for
    an inactive member: nothing is credited to a household that left the programme)."""
    member = service.get_member(member_id)
    errors = Errors()
    if not member.is_active:
        errors.add("memberId", _("%(name)s is inactive and cannot be credited.", name=member.name))
    waste_g = rules.grams(errors, data.get("wasteKg"), "wasteKg", _("Food waste"), positive=True)
    moment = collected_at(errors, data.get("collectedAt"))
    errors.raise_if_any()
    waste_g = waste_g or 0
    earned = _points(waste_g, moment, "wasteKg")
    _add(member, waste_g, earned, moment, "wasteKg", actor_id)
    db.session.commit()
    db.session.refresh(member)
    return Credit(member, waste_g, earned, moment)


def record_many(entries: Sequence[tuple[int, object]], *, actor_id: int | None = None) -> list[Credit]:
    """A collection day's lot: (member id, kg as typed) pairs, blank kg skipped. All are credited
    in one transaction or none: Invalid carries one message per bad field ("kg-<member id>")."""
    errors = Errors()
    moment = utcnow()
    wanted: list[tuple[HouseholdMember, int]] = []
    for member_id, kg in entries:
        if is_blank(kg):
            continue
        field = f"kg-{member_id}"
        try:
            member = service.get_member(member_id)
        except NotFound:
            errors.add(field, _("This household no longer exists."))
            continue
        if not member.is_active:
            errors.add(field, _("%(name)s is inactive and cannot be credited.", name=member.name))
            continue
        waste_g = rules.grams(errors, kg, field, _("Food waste"), positive=True)
        if waste_g:
            wanted.append((member, waste_g))
    errors.raise_if_any()
    credits = []
    for member, waste_g in wanted:
        field = f"kg-{member.id}"
        try:
            earned = _points(waste_g, moment, field)
            _add(member, waste_g, earned, moment, field, actor_id)
        except Invalid as err:
            errors.add(field, err.message)
            continue
        credits.append(Credit(member, waste_g, earned, moment))
    if errors.messages:
        db.session.rollback()
        errors.raise_if_any()
    db.session.commit()
    return credits
