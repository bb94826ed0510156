"""Claims by code: a resident reserves points, staff redeem at pick-up, either side may cancel.

A resident's claim takes the points off the member's balance at once (state open), so a second
claim cannot spend them again; redeeming spends them for good, cancelling gives them back. Every
state change is one conditional UPDATE (... WHERE state = 'open') checked by its row count, so two
redemptions at the same moment end with exactly one success, on SQLite and on MariaDB.
"""

from __future__ import annotations

import io
import re
import secrets

import segno
from flask_babel import gettext as _
from sqlalchemy import func, select, update
from sqlalchemy.engine import CursorResult

from ...data.rows import get_by_id
from ...errors import Conflict, Invalid, NotFound
from ...extensions import db
from ...models import Account, ClaimState, HouseholdMember, Reward, RewardClaim, RewardStatus, utcnow

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed at a desk
CODE_LENGTH = 8
CODE_PREFIX = "SIBOL-"  # in the QR image, so a scan of some other code is recognisably wrong
MAX_OPEN_CLAIMS = 20


def _rows_changed(statement) -> int:
    """Runs an UPDATE and answers how many rows it changed (the race checks read this)."""
    result: CursorResult = db.session.execute(statement)  # type: ignore[assignment]
    return result.rowcount


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))


def clean_code(raw: object) -> str:
    """A typed or scanned code -> its 8 characters; Invalid naming `code` otherwise."""
    if not isinstance(raw, str) or not raw.strip():
        raise Invalid(_("Type or scan the claim code."), field="code")
    text = re.sub(r"[\s-]", "", raw.strip().upper())
    text = text.removeprefix(CODE_PREFIX.rstrip("-"))
    if len(text) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in text):
        raise Invalid(
            _("A claim code is %(code_length)s letters and digits, like ABCD2345.", code_length=CODE_LENGTH),
            field="code",
        )
    return text


def qr_png(code: str, *, scale: int = 8) -> bytes:
    """The claim's QR code as a PNG (made on the server with segno)."""
    out = io.BytesIO()
    segno.make(CODE_PREFIX + code, error="m", micro=False).save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


def claims_of(member: HouseholdMember, limit: int = 50) -> list[RewardClaim]:
    return list(
        db.session.scalars(
            select(RewardClaim)
            .where(RewardClaim.member_id == member.id)
            .order_by(RewardClaim.claimed_at.desc(), RewardClaim.id.desc())
            .limit(limit)
        )
    )


def claim_of(member: HouseholdMember, claim_id: int) -> RewardClaim:
    """The member's own claim; another member's id answers exactly as a missing one (404)."""
    claim = get_by_id(RewardClaim, claim_id)
    if claim is None or claim.member_id != member.id:
        raise NotFound(_("Claim not found."))
    return claim


def get_claim(claim_id: int) -> RewardClaim:
    claim = get_by_id(RewardClaim, claim_id)
    if claim is None:
        raise NotFound(_("Claim not found."))
    return claim


def reserve(member: HouseholdMember, reward_id: object) -> RewardClaim:
    """A resident asks for a reward: the points are reserved at once (the balance drops)."""
    if isinstance(reward_id, bool) or not isinstance(reward_id, int | str):
        raise Invalid(_("Choose a reward."), field="rewardId")
    if isinstance(reward_id, str):
        if not reward_id.strip().isdecimal() or len(reward_id.strip()) > 10:
            raise Invalid(_("Choose a reward."), field="rewardId")
        reward_id = int(reward_id)
    reward = get_by_id(Reward, reward_id)
    if reward is None:
        raise NotFound(_("Reward not found."), field="rewardId")
    if reward.status != RewardStatus.AVAILABLE:
        raise Conflict(_("This reward is not available."), field="rewardId")
    if not member.is_active:
        raise Conflict(_("Only active households can claim rewards."), field="rewardId")
    open_count = db.session.scalar(
        select(func.count(RewardClaim.id)).where(
            RewardClaim.member_id == member.id, RewardClaim.state == ClaimState.OPEN
        )
    )
    if (open_count or 0) >= MAX_OPEN_CLAIMS:
        raise Conflict(
            _(
                "You have %(max_open_claims)s open claims; pick some up first.",
                max_open_claims=MAX_OPEN_CLAIMS,
            ),
            field="rewardId",
        )
    needed = reward.points_required
    spent = _rows_changed(
        update(HouseholdMember)
        .where(HouseholdMember.id == member.id, HouseholdMember.points >= needed)
        .values(points=HouseholdMember.points - needed)
        .execution_options(synchronize_session=False)
    )
    if spent != 1:
        db.session.rollback()
        db.session.refresh(member)
        raise Conflict(
            _(
                "You have %(points)s points; %(name)s needs %(needed)s.",
                points=format(member.points, ","),
                name=reward.name,
                needed=format(needed, ","),
            ),
            field="rewardId",
        )
    claim = RewardClaim(
        reward=reward, member=member, points_spent=needed, code=new_code(), state=ClaimState.OPEN
    )
    db.session.add(claim)
    db.session.commit()
    db.session.refresh(member)
    return claim


def _closed(claim: RewardClaim) -> Conflict:
    db.session.refresh(claim)
    if claim.state == ClaimState.REDEEMED:
        return Conflict(_("This claim was already redeemed."), field="code", state=claim.state)
    return Conflict(_("This claim was cancelled."), field="code", state=claim.state)


def find_by_code(raw: object) -> RewardClaim:
    code = clean_code(raw)
    claim = db.session.scalar(select(RewardClaim).where(RewardClaim.code == code))
    if claim is None:
        raise NotFound(_("No claim has this code."), field="code")
    return claim


def redeem(claim: RewardClaim, actor: Account) -> RewardClaim:
    """Hand the reward over: open -> redeemed, once. A second redemption is a Conflict (409)."""
    done = _rows_changed(
        update(RewardClaim)
        .where(RewardClaim.id == claim.id, RewardClaim.state == ClaimState.OPEN)
        .values(state=ClaimState.REDEEMED, redeemed_at=utcnow(), redeemed_by_id=actor.id)
        .execution_options(synchronize_session=False)
    )
    if done != 1:
        db.session.rollback()
        raise _closed(claim)
    db.session.commit()
    db.session.refresh(claim)
    return claim


def cancel(claim: RewardClaim) -> RewardClaim:
    """open -> cancelled and the reserved points back to the member, in one transaction."""
    done = _rows_changed(
        update(RewardClaim)
        .where(RewardClaim.id == claim.id, RewardClaim.state == ClaimState.OPEN)
        .values(state=ClaimState.CANCELLED, cancelled_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    if done != 1:
        db.session.rollback()
        raise _closed(claim)
    db.session.execute(
        update(HouseholdMember)
        .where(HouseholdMember.id == claim.member_id)
        .values(points=HouseholdMember.points + claim.points_spent)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    db.session.refresh(claim)
    db.session.refresh(claim.member)
    return claim
