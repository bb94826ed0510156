"""A page form carries a one-time id: a double tap or a resent form stores once."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import HouseholdMember, MemberCollection
from tests.factories_household import make_member


@pytest.fixture
def app_overrides():
    return {"WTF_CSRF_ENABLED": True}


def form_of(client, url: str, action: str) -> dict:
    html = client.get(url).get_data(as_text=True)
    form = html.split(f'action="{action}"', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


@pytest.fixture
def staff_client(client, app):
    from tests.factories import DEFAULT_PASSWORD, make_account

    user = make_account()
    token = form_of(client, "/login", "/login")["csrf_token"]
    res = client.post(
        "/login", data={"username": user.username, "password": DEFAULT_PASSWORD, "csrf_token": token}
    )
    assert res.status_code == 302
    return client


def test_the_record_waste_form_sent_twice_credits_once(staff_client):
    rosa = make_member("Rosa", points=100)
    action = f"/household/members/{rosa.id}/waste"
    hidden = form_of(staff_client, f"/household?tab=leaderboard&record={rosa.id}", action)
    assert hidden["form_id"]
    first = staff_client.post(action, data={**hidden, "wasteKg": "2"})
    again = staff_client.post(action, data={**hidden, "wasteKg": "2"})
    assert first.status_code == again.status_code == 302
    assert again.headers["Location"] == first.headers["Location"]
    db.session.expire_all()
    assert db.session.get(HouseholdMember, rosa.id).points == 160
    assert db.session.scalar(select(func.count(MemberCollection.id))) == 1


def test_each_drawing_of_the_form_gets_a_new_id_so_a_second_visit_credits_again(staff_client):
    rosa = make_member("Rosa", points=100)
    action = f"/household/members/{rosa.id}/waste"
    for _ in range(2):
        hidden = form_of(staff_client, f"/household?tab=leaderboard&record={rosa.id}", action)
        assert staff_client.post(action, data={**hidden, "wasteKg": "1"}).status_code == 302
    db.session.expire_all()
    assert db.session.get(HouseholdMember, rosa.id).points == 160


def test_a_form_with_a_field_error_is_not_kept_and_can_be_fixed_and_sent(staff_client):
    rosa = make_member("Rosa", points=100)
    action = f"/household/members/{rosa.id}/waste"
    hidden = form_of(staff_client, f"/household?tab=leaderboard&record={rosa.id}", action)
    bad = staff_client.post(action, data={**hidden, "wasteKg": "lots"})
    assert bad.status_code == 400 and "Food waste" in bad.get_data(as_text=True)
    good = staff_client.post(action, data={**hidden, "wasteKg": "1"})
    assert good.status_code == 302
    db.session.expire_all()
    assert db.session.get(HouseholdMember, rosa.id).points == 130


def test_a_resent_add_household_form_adds_one_household(staff_client):
    hidden = form_of(staff_client, "/household?tab=leaderboard&modal=add-household", "/household/members")
    data = {**hidden, "name": "Nilo", "barangay": "Barangay Fortune"}
    assert staff_client.post("/household/members", data=data).status_code == 302
    assert staff_client.post("/household/members", data=data).status_code == 302
    assert (
        db.session.scalar(select(func.count(HouseholdMember.id)).where(HouseholdMember.name == "Nilo")) == 1
    )


def test_the_collection_day_form_sent_twice_credits_once(staff_client):
    rosa = make_member("Rosa", points=100)
    nilo = make_member("Nilo", points=0)
    hidden = form_of(staff_client, "/household/collection-day", "/household/collection-day")
    data = {**hidden, f"kg-{rosa.id}": "1", f"kg-{nilo.id}": "2"}
    first = staff_client.post("/household/collection-day", data=data)
    again = staff_client.post("/household/collection-day", data=data)
    assert first.status_code == again.status_code == 302
    db.session.expire_all()
    assert db.session.get(HouseholdMember, rosa.id).points == 130
    assert db.session.get(HouseholdMember, nilo.id).points == 60
    assert db.session.scalar(select(func.count(MemberCollection.id))) == 2
