"""The Add Household, Record waste and Claim forms need the page's CSRF token (CSRF on)."""

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import HouseholdMember, RewardClaim
from tests.factories import DEFAULT_PASSWORD, make_account
from tests.factories_household import make_member, make_reward


@pytest.fixture
def app_overrides():
    return {"WTF_CSRF_ENABLED": True}


def form_token(client, url: str) -> str:
    html = client.get(url).get_data(as_text=True)
    return html.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]


def test_household_forms_refuse_a_post_without_the_token(client):
    user = make_account()
    token = form_token(client, "/login")
    assert (
        client.post(
            "/login", data={"username": user.username, "password": DEFAULT_PASSWORD, "csrf_token": token}
        ).status_code
        == 302
    )
    rosa = make_member("Rosa", points=600)
    rice = make_reward("Rice", points=500)
    posts = (
        ("/household/members", {"name": "Nilo", "barangay": "Barangay Fortune"}),
        (f"/household/members/{rosa.id}/waste", {"wasteKg": "2"}),
        (f"/household/rewards/{rice.id}/claims", {"memberId": str(rosa.id), "confirmed": "1"}),
    )
    for url, data in posts:
        res = client.post(url, data=data)
        assert res.status_code == 400 and "security token" in res.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.scalar(select(func.count(HouseholdMember.id))) == 1
    assert db.session.get(HouseholdMember, rosa.id).points == 600
    assert db.session.scalar(select(func.count(RewardClaim.id))) == 0
    # The same posts with the token from the dialogs' pages are saved.
    for (url, data), page in zip(
        posts,
        (
            "/household?tab=leaderboard&modal=add-household",
            f"/household?tab=leaderboard&record={rosa.id}",
            f"/household?tab=rewards&claim={rice.id}",
        ),
        strict=True,
    ):
        res = client.post(url, data={**data, "csrf_token": form_token(client, page)})
        assert res.status_code == 302, res.get_data(as_text=True)[:300]
    db.session.expire_all()
    assert db.session.get(HouseholdMember, rosa.id).points == 600 + 60 - 500
    assert db.session.scalar(select(func.count(RewardClaim.id))) == 1
