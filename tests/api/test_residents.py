"""Residents: accounts linked to household members, "My household", claims by code."""

from __future__ import annotations

import io

import pytest
import zxingcpp
from PIL import Image
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import Barangay, HouseholdMember, RewardClaim, RoleId
from tests.factories import make_account
from tests.factories_admin import make_pending, session_client
from tests.factories_household import make_member, make_reward, make_schedule

pytestmark = pytest.mark.usefixtures("fresh_identity")


def resident(name: str = "Juan Dela Cruz", points: int = 100, barangay: str = "Barangay Fortune"):
    first, _, last = name.partition(" ")
    account = make_account(role=RoleId.HOUSEHOLD, first_name=first, last_name=last)
    member = make_member(name, points=points, barangay=barangay)
    member.account_id = account.id
    db.session.commit()
    return account, member


def points_of(member_id: int) -> int:
    db.session.expire_all()
    return db.session.get(HouseholdMember, member_id).points


# Part 2: the link -----------------------------------------------------------------------------


def test_approving_a_household_account_creates_its_linked_member(client, api_headers):
    admin = make_account(role=RoleId.ADMIN)
    barangay = db.session.scalar(select(Barangay).order_by(Barangay.id))
    pending = make_pending(first_name="Rosa", last_name="Lim", barangay_id=barangay.id)
    res = client.post(f"/api/admin/pending-accounts/{pending.id}/approve", headers=api_headers(admin))
    assert res.status_code == 200
    member = db.session.scalar(select(HouseholdMember).where(HouseholdMember.account_id == pending.id))
    assert member is not None and member.name == "Rosa Lim" and member.barangay == barangay.name
    assert member.points == 0
    mine = client.get("/api/me/household", headers=api_headers(pending)).json
    assert mine["household"]["name"] == "Rosa Lim" and mine["points"] == 0


def test_staff_link_and_unlink_a_member(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    account = make_account(role=RoleId.HOUSEHOLD, username="ana.home")
    member = make_member("Ana Reyes")
    url = f"/api/household/members/{member.id}/account"
    assert client.get(url, headers=api_headers(staff)).json["account"] is None
    res = client.put(url, json={"username": "ANA.HOME"}, headers=api_headers(staff))
    assert res.status_code == 200 and res.json["account"]["username"] == "ana.home"
    assert client.get("/api/me/household", headers=api_headers(account)).json["household"]["id"] == member.id
    # One member per account: linking the same account elsewhere is refused, nothing changes.
    other = make_member("Ben Cruz")
    res = client.put(
        f"/api/household/members/{other.id}/account",
        json={"username": "ana.home"},
        headers=api_headers(staff),
    )
    assert res.status_code == 409 and res.json["field"] == "username"
    # Only Household accounts; unknown names name the field.
    res = client.put(url, json={"username": staff.username}, headers=api_headers(staff))
    assert res.status_code == 409 and res.json["field"] == "username"
    res = client.put(url, json={"username": "nobody.here"}, headers=api_headers(staff))
    assert res.status_code == 404 and res.json["field"] == "username"
    res = client.put(url, json={"username": 12}, headers=api_headers(staff))
    assert res.status_code == 400 and res.json["field"] == "username"
    assert client.put(url, json={"username": None}, headers=api_headers(staff)).json["account"] is None
    assert client.get("/api/me/household", headers=api_headers(account)).status_code == 404
    # Households cannot link themselves.
    res = client.put(url, json={"username": "ana.home"}, headers=api_headers(account))
    assert res.status_code == 403


def test_staff_link_page(app):
    staff = make_account(role=RoleId.STAFF)
    make_account(role=RoleId.HOUSEHOLD, username="cora.home")
    member = make_member("Cora Santos")
    page = session_client(app, staff)
    assert "No account is linked" in page.get(f"/household/members/{member.id}/account").get_data(
        as_text=True
    )
    bad = page.post(f"/household/members/{member.id}/account", data={"username": "ghost"})
    assert bad.status_code == 404 and "No account has this username." in bad.get_data(as_text=True)
    res = page.post(
        f"/household/members/{member.id}/account", data={"username": "cora.home"}, follow_redirects=True
    )
    assert "Linked to <strong>cora.home</strong>" in res.get_data(as_text=True)


# Part 3: My household --------------------------------------------------------------------------


def test_my_household_shows_balance_history_next_collection_rewards_and_board(app, client, api_headers):
    account, member = resident("Juan Dela Cruz", points=40, barangay="Purok 3")
    make_member("Maria Clara Santos", points=900)
    staff = make_account(role=RoleId.STAFF)
    assert (
        session_client(app, staff)
        .post(f"/household/members/{member.id}/waste", data={"wasteKg": "2.5"})
        .status_code
        == 302
    )
    make_schedule(areas=("Purok 9",), when=__import__("datetime").date(2100, 1, 1))
    soon = make_schedule(
        areas=("Purok 1", "purok 3"), person="Leo Collector", when=__import__("datetime").date(2099, 5, 1)
    )
    make_reward("Rice 1 kg", points=100)
    make_reward("Soap", points=10)
    make_reward("TV", points=5000)
    data = client.get("/api/me/household", headers=api_headers(account)).json
    assert data["points"] == 40 + 75  # 2.5 kg at the default 1 kg = 30 points
    assert data["nextCollection"]["id"] == soon.id and data["nextCollectionIsForMyArea"] is True
    assert [r["name"] for r in data["affordableRewards"]] == ["Rice 1 kg", "Soap"]
    names = [(row["name"], row["isMe"]) for row in data["leaderboard"]]
    assert names == [("Maria C.", False), ("Juan D.", True)]
    assert "Maria Clara Santos" not in str(data)
    history = client.get("/api/me/household/collections", headers=api_headers(account)).json
    assert (
        history["total"] == 1 and history["data"][0]["wasteKg"] == 2.5 and history["data"][0]["points"] == 75
    )
    browser = session_client(app, account)
    sent = browser.get("/household")
    assert sent.status_code == 302 and sent.headers["Location"] == "/household/my"
    page = browser.get("/household/my").get_data(as_text=True)
    assert "My household" in page and 'id="points-balance">115<' in page
    assert "Leo Collector" in page and "Maria C." in page and "Maria Clara" not in page


def test_a_resident_never_sees_another_members_data(client, api_headers, app):
    account, _ = resident("Juan Dela Cruz")
    other_account, other = resident("Ana Reyes", points=500)
    reward = make_reward("Rice", points=100)
    theirs = client.post(
        "/api/me/household/claims", json={"rewardId": reward.id}, headers=api_headers(other_account)
    ).json["claim"]
    h = api_headers(account)
    for url in (
        f"/api/me/household/claims/{theirs['id']}",
        f"/api/me/household/claims/{theirs['id']}/qr.png",
    ):
        res = client.get(url, headers=h)
        assert res.status_code == 404 and res.json["message"] == "Claim not found.", url
    assert client.post(f"/api/me/household/claims/{theirs['id']}/cancel", headers=h).status_code == 404
    page = session_client(app, account)
    assert page.get(f"/household/my/claims/{theirs['id']}/qr.png").status_code == 404
    assert page.post(f"/household/my/claims/{theirs['id']}/cancel").status_code == 404
    assert points_of(other.id) == 400  # their claim stays open
    # The staff views of members are closed to residents.
    assert client.get(f"/api/household/members/{other.id}/account", headers=h).status_code == 403
    assert client.get("/api/household/leaderboard", headers=h).status_code == 403


def test_next_collection_falls_back_to_the_barangays_next_one(client, api_headers):
    from datetime import date

    account, _ = resident(barangay="Barangay Fortune")
    make_schedule(areas=("Purok 1",), when=date(2000, 1, 1))  # past: never shown
    later = make_schedule(areas=("Purok 7",), when=date(2099, 3, 1))
    make_schedule(areas=("Purok 2",), when=date(2099, 4, 1))
    data = client.get("/api/me/household", headers=api_headers(account)).json
    assert data["nextCollection"]["id"] == later.id and data["nextCollectionIsForMyArea"] is False


def test_household_without_a_member_is_told_so(app, client, api_headers):
    account = make_account(role=RoleId.HOUSEHOLD)
    res = client.get("/api/me/household", headers=api_headers(account))
    assert res.status_code == 404 and "No household is linked" in res.json["message"]
    page = session_client(app, account).get("/household", follow_redirects=True).get_data(as_text=True)
    assert "No household is linked" in page


def test_staff_cannot_use_my_household(app, client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    assert client.get("/api/me/household", headers=api_headers(staff)).status_code == 403
    assert session_client(app, staff).get("/household/my").status_code == 403


# Part 4: claims -------------------------------------------------------------------------------


def test_claim_reserves_points_and_a_second_claim_cannot_spend_them(client, api_headers):
    account, member = resident(points=150)
    rice = make_reward("Rice", points=100)
    h = api_headers(account)
    res = client.post("/api/me/household/claims", json={"rewardId": rice.id}, headers=h)
    assert res.status_code == 201 and res.json["points"] == 50
    claim = res.json["claim"]
    assert claim["state"] == "open" and len(claim["code"]) == 8
    mine = client.get("/api/me/household", headers=h).json
    assert mine["points"] == 50 and mine["reservedPoints"] == 100
    again = client.post("/api/me/household/claims", json={"rewardId": rice.id}, headers=h)
    assert again.status_code == 409 and again.json["field"] == "rewardId"
    assert points_of(member.id) == 50
    for bad, status in (
        ({}, 400),
        ({"rewardId": "x"}, 400),
        ({"rewardId": 99999}, 404),
        ({"rewardId": True}, 400),
    ):
        res = client.post("/api/me/household/claims", json=bad, headers=h)
        assert res.status_code == status and res.json["field"] == "rewardId", bad
    assert db.session.scalar(select(db.func.count(RewardClaim.id))) == 1


def test_redeem_spends_for_good_and_twice_is_409(client, api_headers):
    account, member = resident(points=100)
    operator = make_account(role=RoleId.OPERATOR)
    code = client.post(
        "/api/me/household/claims", json={"rewardId": make_reward(points=60).id}, headers=api_headers(account)
    ).json["claim"]["code"]
    typed = f" {code[:4].lower()}-{code[4:]} "  # as a person types it
    res = client.post("/api/household/claims/redeem", json={"code": typed}, headers=api_headers(operator))
    assert res.status_code == 200 and res.json["claim"]["state"] == "redeemed"
    res = client.post("/api/household/claims/redeem", json={"code": code}, headers=api_headers(operator))
    assert res.status_code == 409 and res.json["message"] == "This claim was already redeemed."
    assert points_of(member.id) == 40
    listed = client.get("/api/household/claims", headers=api_headers(operator)).json["data"]
    assert [(c["code"], c["state"]) for c in listed] == [(code, "redeemed")]
    # A redeemed claim cannot be cancelled back into points.
    claim_id = (
        res.json
        and client.get("/api/me/household/claims", headers=api_headers(account)).json["data"][0]["id"]
    )
    assert (
        client.post(f"/api/me/household/claims/{claim_id}/cancel", headers=api_headers(account)).status_code
        == 409
    )
    assert points_of(member.id) == 40
    for bad, status in (
        ({"code": ""}, 400),
        ({"code": "ABC"}, 400),
        ({"code": "ZZZZ2222"}, 404),
        ({"code": 5}, 400),
    ):
        res = client.post("/api/household/claims/redeem", json=bad, headers=api_headers(operator))
        assert res.status_code == status and res.json["field"] == "code", bad
    # Residents cannot redeem, even their own claim.
    other = client.post(
        "/api/me/household/claims", json={"rewardId": make_reward(points=10).id}, headers=api_headers(account)
    ).json["claim"]
    assert (
        client.post(
            "/api/household/claims/redeem", json={"code": other["code"]}, headers=api_headers(account)
        ).status_code
        == 403
    )


def test_cancel_releases_the_points(client, api_headers):
    account, member = resident(points=100)
    staff = make_account(role=RoleId.STAFF)
    reward = make_reward(points=70)
    first = client.post(
        "/api/me/household/claims", json={"rewardId": reward.id}, headers=api_headers(account)
    ).json["claim"]
    res = client.post(f"/api/me/household/claims/{first['id']}/cancel", headers=api_headers(account))
    assert res.status_code == 200 and res.json["claim"]["state"] == "cancelled" and res.json["points"] == 100
    assert (
        client.post(
            f"/api/me/household/claims/{first['id']}/cancel", headers=api_headers(account)
        ).status_code
        == 409
    )
    second = client.post(
        "/api/me/household/claims", json={"rewardId": reward.id}, headers=api_headers(account)
    ).json["claim"]
    assert points_of(member.id) == 30
    res = client.post(f"/api/household/claims/{second['id']}/cancel", headers=api_headers(staff))
    assert res.status_code == 200 and points_of(member.id) == 100
    res = client.post(
        "/api/household/claims/redeem", json={"code": second["code"]}, headers=api_headers(staff)
    )
    assert res.status_code == 409 and res.json["message"] == "This claim was cancelled."


def test_the_qr_image_decodes_back_to_the_claim_code(client, api_headers, app):
    account, _ = resident(points=100)
    claim = client.post(
        "/api/me/household/claims", json={"rewardId": make_reward(points=5).id}, headers=api_headers(account)
    ).json["claim"]
    for res in (
        client.get(claim["qr"], headers=api_headers(account)),
        session_client(app, account).get(f"/household/my/claims/{claim['id']}/qr.png"),
    ):
        assert res.status_code == 200 and res.mimetype == "image/png"
        found = zxingcpp.read_barcodes(Image.open(io.BytesIO(res.data)))
        assert [b.text for b in found] == [f"SIBOL-{claim['code']}"]
    # The scanned text (with its prefix) is accepted as the code at the desk.
    staff = make_account(role=RoleId.STAFF)
    res = client.post(
        "/api/household/claims/redeem", json={"code": f"SIBOL-{claim['code']}"}, headers=api_headers(staff)
    )
    assert res.status_code == 200


def test_claim_and_redeem_through_the_pages(app):
    account, member = resident(points=100)
    reward = make_reward("Eco bag", points=30)
    home = session_client(app, account)
    res = home.post("/household/my/claims", data={"rewardId": str(reward.id)}, follow_redirects=True)
    page = res.get_data(as_text=True)
    assert 'id="points-balance">70<' in page and "Waiting for pick-up" in page
    code = db.session.scalar(select(RewardClaim.code).where(RewardClaim.member_id == member.id))
    short = home.post("/household/my/claims", data={"rewardId": str(make_reward("TV", points=999).id)})
    assert short.status_code == 409 and "TV needs 999" in short.get_data(as_text=True)
    desk = session_client(app, make_account(role=RoleId.OPERATOR))
    bad = desk.post("/household/redeem", data={"code": "nope"})
    assert bad.status_code == 400 and "A claim code is 8 letters" in bad.get_data(as_text=True)
    ok = desk.post("/household/redeem", data={"code": code})
    assert ok.status_code == 200 and "Redeemed: Eco bag for Juan Dela Cruz" in ok.get_data(as_text=True)
    twice = desk.post("/household/redeem", data={"code": code})
    assert twice.status_code == 409 and "already redeemed" in twice.get_data(as_text=True)
    page = home.get("/household/my").get_data(as_text=True)
    assert "Redeemed" in page and 'id="points-balance">70<' in page
