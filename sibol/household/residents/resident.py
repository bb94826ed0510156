"""A Household account's own household: its member row, balance, history, next collection,
affordable rewards, claims and the leaderboard with other households shown by first name and
initial. Also the account <-> member link staff manage and the member made on approval."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from ...errors import Conflict, Invalid, NotFound
from ...extensions import db
from ...impact import service as impact
from ...models import (
    OPEN_COLLECTION_STATUSES,
    Account,
    ClaimState,
    CollectionArea,
    CollectionSchedule,
    HouseholdMember,
    MemberCollection,
    Reward,
    RewardClaim,
    RewardStatus,
    RoleId,
)
from .. import service as household
from . import claims as claim_service

LEADERBOARD_SIZE = 10


def public_name(name: str) -> str:
    """'Juan Dela Cruz' -> 'Juan D.': how residents see other households."""
    parts = name.split()
    if not parts:
        return ""
    return parts[0] if len(parts) == 1 else f"{parts[0]} {parts[1][0].upper()}."


def member_of(account: Account) -> HouseholdMember:
    member = db.session.scalar(select(HouseholdMember).where(HouseholdMember.account_id == account.id))
    if member is None:
        raise NotFound(_("No household is linked to your account yet. Ask the barangay office."))
    return member


def reserved_points(member: HouseholdMember) -> int:
    return int(
        db.session.scalar(
            select(func.coalesce(func.sum(RewardClaim.points_spent), 0)).where(
                RewardClaim.member_id == member.id, RewardClaim.state == ClaimState.OPEN
            )
        )
        or 0
    )


def next_collection(member: HouseholdMember, today: date) -> tuple[CollectionSchedule | None, bool]:
    """The earliest pending (or under way) collection from today on whose areas include the member's area (its
    barangay), and True; when none names it, the barangay's next pending collection and False
    (members carry no purok, and schedules are usually by purok)."""
    upcoming = (
        select(CollectionSchedule)
        .where(
            CollectionSchedule.status.in_(OPEN_COLLECTION_STATUSES),
            CollectionSchedule.collection_date >= today,
        )
        .order_by(CollectionSchedule.collection_date, CollectionSchedule.id)
        .limit(1)
    )
    area = (member.barangay or "").strip().lower()
    if area:
        in_area = select(CollectionArea.schedule_id).where(func.lower(CollectionArea.name) == area)
        mine = db.session.scalar(upcoming.where(CollectionSchedule.id.in_(in_area)))
        if mine is not None:
            return mine, True
    return db.session.scalar(upcoming), False


def affordable_rewards(member: HouseholdMember) -> list[Reward]:
    return list(
        db.session.scalars(
            select(Reward)
            .where(Reward.status == RewardStatus.AVAILABLE, Reward.points_required <= member.points)
            .order_by(Reward.points_required.desc(), Reward.name)
            .limit(50)
        )
    )


@dataclass
class BoardRow:
    rank: int
    name: str
    points: int
    is_me: bool


def leaderboard(member: HouseholdMember) -> list[BoardRow]:
    """The top households (active ones), first name and initial only; the member's own row is
    added at the end when it is not among them."""
    ranked = select(
        HouseholdMember.id,
        HouseholdMember.name,
        HouseholdMember.points,
        func.rank().over(order_by=HouseholdMember.points.desc()).label("rank"),
    ).where(HouseholdMember.is_active.is_(True))
    sub = ranked.subquery()
    top = db.session.execute(select(sub).order_by(sub.c.rank, sub.c.name).limit(LEADERBOARD_SIZE)).all()
    rows = [BoardRow(int(r.rank), public_name(r.name), r.points, r.id == member.id) for r in top]
    if not any(r.is_me for r in rows):
        mine = db.session.execute(select(sub).where(sub.c.id == member.id)).first()
        if mine is not None:
            rows.append(BoardRow(int(mine.rank), public_name(mine.name), mine.points, True))
    return rows


@dataclass
class HistoryPage:
    rows: list[MemberCollection]
    total: int
    page: int
    per_page: int


def collections(member: HouseholdMember, page: int = 1, per_page: int = 10) -> HistoryPage:
    query = (
        select(MemberCollection)
        .where(MemberCollection.member_id == member.id)
        .order_by(MemberCollection.collected_on.desc(), MemberCollection.id.desc())
    )
    count = select(func.count(MemberCollection.id)).where(MemberCollection.member_id == member.id)
    total = db.session.scalar(count) or 0
    rows = list(db.session.scalars(query.limit(per_page).offset((page - 1) * per_page)))
    return HistoryPage(rows, total, page, per_page)


@dataclass
class Overview:
    member: HouseholdMember
    reserved: int
    next_collection: CollectionSchedule | None
    next_is_for_my_area: bool
    rewards: list[Reward]
    claims: list[RewardClaim]
    leaderboard: list[BoardRow]
    recent: list[MemberCollection]
    impact: impact.Impact  # this year's, as the impact module counts it


def overview(account: Account, today: date) -> Overview:
    member = member_of(account)
    upcoming, for_my_area = next_collection(member, today)
    return Overview(
        member=member,
        reserved=reserved_points(member),
        next_collection=upcoming,
        next_is_for_my_area=for_my_area,
        rewards=affordable_rewards(member),
        claims=claim_service.claims_of(member, limit=20),
        leaderboard=leaderboard(member),
        recent=collections(member, 1, 10).rows,
        impact=impact.for_household(member, impact.Period.year_of(today)),
    )


def set_public_name(member: HouseholdMember, shown: bool) -> bool:
    """Record whether the household agrees to its name on the public page (one write)."""
    member.public_name = bool(shown)
    db.session.commit()
    return member.public_name


# The link, staff side -------------------------------------------------------------------------


def ensure_member_for(account: Account) -> HouseholdMember | None:
    """On approval: a Household account gets its member (name and barangay from the account),
    unless staff linked one already. The caller commits."""
    if account.role_id != RoleId.HOUSEHOLD:
        return None
    existing = db.session.scalar(select(HouseholdMember).where(HouseholdMember.account_id == account.id))
    if existing is not None:
        return existing
    member = HouseholdMember(
        name=account.full_name[:100],
        barangay=account.barangay.name if account.barangay else "",
        points=0,
        is_active=True,
        account_id=account.id,
    )
    db.session.add(member)
    return member


def linked_account(member: HouseholdMember) -> Account | None:
    return db.session.get(Account, member.account_id) if member.account_id else None


def link_account(member_id: int, username: object) -> HouseholdMember:
    """Staff link a member to a Household account by its username, or unlink it (empty)."""
    member = household.get_member(member_id)
    if username is None or (isinstance(username, str) and not username.strip()):
        member.account_id = None
        db.session.commit()
        return member
    if not isinstance(username, str) or len(username) > 64:
        raise Invalid(_("Type the account's username."), field="username")
    account = db.session.scalar(
        select(Account).where(func.lower(Account.username) == username.strip().lower())
    )
    if account is None:
        raise NotFound(_("No account has this username."), field="username")
    if account.role_id != RoleId.HOUSEHOLD:
        raise Conflict(_("Only Household accounts can be linked to a household."), field="username")
    other = db.session.scalar(select(HouseholdMember).where(HouseholdMember.account_id == account.id))
    if other is not None and other.id != member.id:
        raise Conflict(
            _("%(username)s is already linked to %(name)s.", username=account.username, name=other.name),
            field="username",
        )
    member.account_id = account.id
    try:
        db.session.commit()
    except IntegrityError:  # linked elsewhere at the same moment: the unique index refused it
        db.session.rollback()
        raise Conflict(
            _("%(username)s is already linked to another household.", username=account.username),
            field="username",
        ) from None
    return member
