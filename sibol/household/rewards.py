"""Household rewards (with an image) and the claims that spend a member's points on them."""

from __future__ import annotations

import secrets
import typing
from pathlib import Path

from flask_babel import gettext as _
from sqlalchemy import CursorResult, Select, func, select, update

from ..data.listing import Page, fetch_page, matches_any
from ..data.rows import MAX_ID, get_by_id
from ..errors import Conflict, Invalid, NotFound, TooLarge, Unsupported
from ..extensions import db
from ..inputs import rules, uploads
from ..inputs.fields import Errors
from ..inputs.uploads import IMAGE_EXTENSIONS, MAX_UPLOAD_BYTES, sniff_image
from ..models import HouseholdMember, Reward, RewardClaim, RewardStatus
from .service import REWARD_STATUSES, get_member, search_text


def list_rewards(q: str | None = None, status: str | None = None, page: int = 1, per_page: int = 10) -> Page:
    conditions = _reward_conditions(q, status)
    count = select(func.count(Reward.id)).where(*conditions)
    return fetch_page(rewards_query(q, status), count, page, per_page)


def rewards_query(q: str | None = None, status: str | None = None) -> Select:
    """The rewards list_rewards pages through, unpaged."""
    return select(Reward).where(*_reward_conditions(q, status)).order_by(Reward.id)


def _reward_conditions(q: str | None, status: str | None) -> list:
    conditions = []
    q = search_text(q)
    if q:
        conditions.append(matches_any(q, Reward.name, Reward.area))
    if status in REWARD_STATUSES:
        conditions.append(Reward.status == status)
    return conditions


def get_reward(reward_id: int) -> Reward:
    reward = get_by_id(Reward, reward_id)
    if reward is None:
        raise NotFound(_("Reward not found."))
    return reward


def image_kind(head: bytes) -> tuple[str, str] | None:
    """(MIME type, extension) of a PNG, JPEG, GIF or WebP by its first bytes, else None."""
    mime = sniff_image(head)
    return (mime, "." + IMAGE_EXTENSIONS[mime]) if mime else None


def _check_image(stream) -> tuple[bytes, str, str]:
    """Reads an uploaded file (at most 10 MB) and recognises it as an image; raises TooLarge or
    Unsupported with a message for the image field."""
    data = stream.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise TooLarge(_("The image is larger than 10 MB. Choose a smaller image."), field="image")
    if not data:
        raise Invalid(_("The image file is empty."), field="image")
    kind = image_kind(data[:16])
    if kind is None:
        raise Unsupported(_("Upload an image (PNG, JPEG, GIF or WebP)."), field="image")
    return data, kind[0], kind[1]


def create_reward(data: dict, image=None) -> Reward:
    """data: reward (name), status (Available), points (eligibility: points needed), area.
    image: a file-like object or None. Nothing is stored when anything is refused."""
    errors = Errors()
    name = rules.text(errors, data.get("reward"), "reward", _("Reward"), max_length=120)
    status = rules.choice(
        errors, data.get("status"), "status", _("Status"), REWARD_STATUSES, RewardStatus.AVAILABLE.value
    )
    points = rules.whole(errors, data.get("points"), "points", _("Eligibility (points needed)"))
    area = rules.text(errors, data.get("area"), "area", _("Area"), required=False)
    errors.raise_if_any()
    reward = Reward(name=name, status=status, points_required=points, area=area)
    path: Path | None = None
    if image is not None:
        content, mime, ext = _check_image(image)
        folder = uploads.upload_dir("rewards")
        folder.mkdir(parents=True, exist_ok=True)
        reward.image_file = secrets.token_hex(16) + ext
        reward.image_type = mime
        path = folder / reward.image_file
        path.write_bytes(content)
    db.session.add(reward)
    try:
        db.session.commit()
    except Exception:
        db.session.rollback()
        if path is not None:
            path.unlink(missing_ok=True)
        raise
    return reward


def reward_image(reward_id: int) -> tuple[Path, str]:
    reward = get_reward(reward_id)
    if not reward.image_file:
        raise NotFound(_("This reward has no image."))
    path = uploads.upload_dir("rewards") / reward.image_file
    if not path.is_file():
        raise NotFound(_("This reward's image is missing."))
    return path, reward.image_type or "application/octet-stream"


# Claims -----------------------------------------------------------------------------------------


def list_claims(q: str | None = None, page: int = 1, per_page: int = 10) -> Page:
    conditions = _claim_conditions(q)
    count = (
        select(func.count(RewardClaim.id))
        .join(RewardClaim.member)
        .join(RewardClaim.reward)
        .where(*conditions)
    )
    return fetch_page(claims_query(q), count, page, per_page)


def claims_query(q: str | None = None) -> Select:
    """The claims list_claims pages through (newest first), unpaged."""
    return (
        select(RewardClaim)
        .join(RewardClaim.member)
        .join(RewardClaim.reward)
        .where(*_claim_conditions(q))
        .order_by(RewardClaim.claimed_at.desc(), RewardClaim.id.desc())
    )


def _claim_conditions(q: str | None) -> list:
    q = search_text(q)
    return [matches_any(q, HouseholdMember.name, Reward.name)] if q else []


def find_member(member_id: object) -> HouseholdMember | None:
    """The member a form names, or None (the claim itself reports what is wrong)."""
    return get_by_id(HouseholdMember, member_id)


def can_claim(reward: Reward, member: HouseholdMember) -> bool:
    """Whether claim_reward would go ahead (the page asks first only then)."""
    return (
        reward.status == RewardStatus.AVAILABLE
        and member.is_active
        and member.points >= reward.points_required
    )


def undo_claim(claim_id: int) -> HouseholdMember:
    """Takes a claim back (undo): the claim goes and its points return, in one commit."""
    claim = get_by_id(RewardClaim, claim_id)
    if claim is None:
        raise NotFound(_("That claim no longer exists."))
    member = claim.member
    db.session.execute(
        update(HouseholdMember)
        .where(HouseholdMember.id == member.id)
        .values(points=HouseholdMember.points + claim.points_spent)
        .execution_options(synchronize_session=False)
    )
    db.session.delete(claim)
    db.session.commit()
    db.session.refresh(member)
    return member


def claim_reward(reward_id: int, member_id) -> RewardClaim:
    """A member spends points on an available reward; refuses when points fall short."""
    errors = Errors()
    member_id = rules.whole(errors, member_id, "memberId", _("Member"), minimum=1, maximum=MAX_ID)
    errors.raise_if_any()
    reward = get_reward(reward_id)
    try:
        member = get_member(member_id)
    except NotFound as err:
        raise NotFound(err.message, field="memberId") from None
    if reward.status != RewardStatus.AVAILABLE:
        raise Conflict(_("This reward is not available."), field="reward")
    if not member.is_active:
        raise Conflict(_("Only active members can claim rewards."), field="memberId")
    short = Conflict(
        _(
            "%(name)s has %(points)s points; this reward needs %(points_required)s.",
            name=member.name,
            points=member.points,
            points_required=reward.points_required,
        ),
        field="memberId",
    )
    if member.points < reward.points_required:
        raise short
    # Spent in the database only while the points are still there: two claims at once cannot
    # take a member below 0.
    spent = typing.cast(
        CursorResult[typing.Any],
        db.session.execute(
            update(HouseholdMember)
            .where(HouseholdMember.id == member.id, HouseholdMember.points >= reward.points_required)
            .values(points=HouseholdMember.points - reward.points_required)
            .execution_options(synchronize_session=False)
        ),
    )
    if spent.rowcount != 1:
        db.session.rollback()
        raise short
    claim = RewardClaim(reward=reward, member=member, points_spent=reward.points_required)
    db.session.add(claim)
    db.session.commit()
    db.session.refresh(member)
    return claim
