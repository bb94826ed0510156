"""Undo offers are the server's, not the cookie's: an old copy of the cookie never undoes anything
again, nor a newer row that took an old row's place, and an offer works only for the account that
acted."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from sibol.extensions import db
from sibol.identity.sessions import SESSION_KEY
from sibol.models import RoleId
from sibol.models.auth import UndoOffer
from sibol.models.household import HouseholdMember, RewardClaim
from tests.factories import DEFAULT_PASSWORD, make_account
from tests.factories_household import make_member, make_reward


def sign_in(app, account):
    browser = app.test_client()
    res = browser.post("/login", data={"username": account.username, "password": DEFAULT_PASSWORD})
    assert res.status_code == 302
    return browser


def copy_of(browser, app):
    """Another client holding a copy of the browser's cookie as it is now."""
    thief = app.test_client()
    thief.set_cookie("session", browser.get_cookie("session").value)
    return thief


def claim(browser, reward_id: int, member_id: int) -> int:
    res = browser.post(
        f"/household/rewards/{reward_id}/claims", data={"memberId": str(member_id), "confirmed": "1"}
    )
    assert res.status_code == 302
    return db.session.scalar(select(func.max(RewardClaim.id)))


def undo(browser, claim_id: int) -> str:
    return browser.post(f"/household/claims/{claim_id}/undo", follow_redirects=True).get_data(as_text=True)


def points(member_id: int) -> int:
    db.session.expire_all()
    return db.session.get(HouseholdMember, member_id).points


def test_an_old_cookie_never_undoes_a_newer_claim(app):
    staff = make_account(role=RoleId.STAFF, username="first.staff")
    other = make_account(role=RoleId.STAFF, username="second.staff")
    rosa, ben = make_member("Rosa Lim", points=800), make_member("Ben Cruz", points=800)
    rice = make_reward("Rice 5 kg", points=500)
    mine, theirs = sign_in(app, staff), sign_in(app, other)

    first = claim(mine, rice.id, rosa.id)
    replay = copy_of(mine, app)  # the cookie that carries the Undo offer of the first claim
    assert "Claim undone; Rosa Lim has 800 points again." in undo(mine, first)

    second = claim(theirs, rice.id, ben.id)  # another user's claim right after
    assert second != first  # never the undone claim's id again
    assert "too late to undo" in undo(replay, first)
    assert "too late to undo" in undo(replay, second)
    assert points(ben.id) == 300 and db.session.get(RewardClaim, second) is not None
    assert points(rosa.id) == 800  # the first undo was not repeated either


def test_an_offer_works_only_for_the_account_that_acted(app):
    staff = make_account(role=RoleId.STAFF, username="acting.staff")
    other = make_account(role=RoleId.STAFF, username="other.staff")
    rosa = make_member("Rosa Lim", points=800)
    rice = make_reward("Rice 5 kg", points=500)
    mine = sign_in(app, staff)
    made = claim(mine, rice.id, rosa.id)
    with mine.session_transaction() as sess:
        offer = dict(sess["sibol_undo"])
    theirs = sign_in(app, other)
    with theirs.session_transaction() as sess:
        sess["sibol_undo"] = offer  # another account holding the same offer
        assert sess[SESSION_KEY]
    assert "too late to undo" in undo(theirs, made)
    assert points(rosa.id) == 300
    assert "Claim undone" in undo(mine, made) and points(rosa.id) == 800


def test_the_offer_is_kept_on_the_server_hashed(app):
    staff = make_account(role=RoleId.STAFF)
    mine = sign_in(app, staff)
    made = claim(mine, make_reward("Soap", points=10).id, make_member("Ana Go", points=50).id)
    with mine.session_transaction() as sess:
        raw = sess["sibol_undo"]["token"]
    stored = db.session.scalar(select(UndoOffer))
    assert (stored.kind, stored.target_id, stored.account_id) == ("reward-claim", made, staff.id)
    assert stored.token_hash != raw and re.fullmatch(r"[0-9a-f]{64}", stored.token_hash)
    assert stored.used_at is None
    undo(mine, made)
    db.session.expire_all()
    assert db.session.scalar(select(UndoOffer)).used_at is not None
