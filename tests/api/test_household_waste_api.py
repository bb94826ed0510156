"""POST /api/household/members/{id}/waste: crediting food waste through the API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.identity import tenancy
from sibol.models import Barangay, HouseholdMember, MemberCollection, RoleId
from tests.factories import make_account
from tests.factories_household import make_member

pytestmark = pytest.mark.usefixtures("fresh_identity")


def url(member) -> str:
    return f"/api/household/members/{member.id}/waste"


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def test_credit_answers_201_with_the_points_and_the_new_balance(client, staff_headers):
    rosa = make_member("Rosa", points=100)
    res = client.post(
        url(rosa), json={"wasteKg": 2.5, "collectedAt": "2026-11-25T07:30:00+08:00"}, headers=staff_headers
    )
    # The day of the test may be more than 7 days after that date: then the message names it.
    if res.status_code == 400:
        assert res.json["field"] == "collectedAt"
        res = client.post(url(rosa), json={"wasteKg": 2.5}, headers=staff_headers)
    assert res.status_code == 201, res.json
    assert set(res.json) == {"memberId", "wasteKg", "points", "balance", "collectedAt"}
    assert res.json["memberId"] == rosa.id and res.json["wasteKg"] == 2.5
    assert res.json["points"] == 75 and res.json["balance"] == 175
    db.session.expire_all()
    assert db.session.get(HouseholdMember, rosa.id).points == 175
    assert db.session.scalar(select(func.count(MemberCollection.id))) == 1


def test_collected_at_defaults_to_now_and_keeps_the_moment_sent(client, staff_headers):
    rosa = make_member("Rosa", points=0)
    before = datetime.now(UTC).replace(microsecond=0)
    res = client.post(url(rosa), json={"wasteKg": "1"}, headers=staff_headers)
    assert res.status_code == 201
    got = datetime.fromisoformat(res.json["collectedAt"].replace("Z", "+00:00"))
    assert before - timedelta(seconds=1) <= got <= datetime.now(UTC)
    three_days = datetime.now(UTC).replace(microsecond=0) - timedelta(days=3)
    res = client.post(url(rosa), json={"wasteKg": "1", "collectedAt": iso(three_days)}, headers=staff_headers)
    assert res.status_code == 201
    assert res.json["collectedAt"] == iso(three_days).replace("+00:00", "Z")


def test_points_come_from_the_rule_in_force_when_the_waste_was_collected(client, staff_headers, staff):
    rosa = make_member("Rosa", points=0)
    two_days_ago = datetime.now(UTC) - timedelta(days=2)
    # The rule was 1 kg = 30 points until now; from now on 1 kg = 100 points.
    assert (
        client.put(
            "/api/household/point-rule", json={"wasteKg": 1, "points": 100}, headers=staff_headers
        ).status_code
        == 200
    )
    old = client.post(url(rosa), json={"wasteKg": 1, "collectedAt": iso(two_days_ago)}, headers=staff_headers)
    new = client.post(url(rosa), json={"wasteKg": 1}, headers=staff_headers)
    assert old.json["points"] == 30 and new.json["points"] == 100
    assert new.json["balance"] == 130


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({}, "wasteKg", "Food waste is required."),
        ({"wasteKg": "lots"}, "wasteKg", "Food waste must be a number of kilograms."),
        ({"wasteKg": 0}, "wasteKg", None),
        ({"wasteKg": -1}, "wasteKg", None),
        ({"wasteKg": 0.001}, "wasteKg", None),
        ({"wasteKg": 1, "collectedAt": "yesterday"}, "collectedAt", None),
        ({"wasteKg": 1, "collectedAt": 12}, "collectedAt", None),
        ({"wasteKg": 1, "collectedAt": "2026-11-25T07:30:00"}, "collectedAt", None),
        ({"wasteKg": 1, "collectedAt": "FUTURE"}, "collectedAt", "collectedAt cannot be in the future."),
        ({"wasteKg": 1, "collectedAt": "OLD"}, "collectedAt", "collectedAt can be at most 7 days ago."),
    ],
)
def test_bad_values_are_refused_with_400_naming_the_field(client, staff_headers, body, field, message):
    rosa = make_member("Rosa", points=100)
    if body.get("collectedAt") == "FUTURE":
        body = {**body, "collectedAt": iso(datetime.now(UTC) + timedelta(hours=1))}
    if body.get("collectedAt") == "OLD":
        body = {**body, "collectedAt": iso(datetime.now(UTC) - timedelta(days=7, minutes=5))}
    res = client.post(url(rosa), json=body, headers=staff_headers)
    assert res.status_code == 400, res.json
    assert res.json["field"] == field
    if message:
        assert res.json["message"] == message
    db.session.expire_all()
    assert db.session.get(HouseholdMember, rosa.id).points == 100


def test_an_inactive_member_is_refused_naming_the_member_and_nothing_is_written(client, staff_headers):
    nilo = make_member("Nilo", points=40, active=False)
    res = client.post(
        url(nilo), json={"wasteKg": 2}, headers={**staff_headers, "Idempotency-Key": "inactive-1"}
    )
    assert res.status_code == 400
    assert res.json["field"] == "memberId"
    assert res.json["message"] == "Nilo is inactive and cannot be credited."
    db.session.expire_all()
    assert db.session.get(HouseholdMember, nilo.id).points == 40
    assert db.session.scalar(select(func.count(MemberCollection.id))) == 0


def test_the_record_waste_dialog_shows_why_an_inactive_member_is_refused(client, staff_client):
    nilo = make_member("Nilo", points=40, active=False)
    res = client.post(f"/household/members/{nilo.id}/waste", data={"wasteKg": "2"})
    assert res.status_code == 400
    assert "Nilo is inactive and cannot be credited." in res.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(HouseholdMember, nilo.id).points == 40


def test_a_body_that_is_not_json_is_refused(client, staff_headers):
    rosa = make_member("Rosa")
    res = client.post(url(rosa), data="wasteKg=1", headers={**staff_headers, "Content-Type": "text/plain"})
    assert res.status_code == 415


def test_a_household_account_is_refused_with_403(client, api_headers):
    rosa = make_member("Rosa", points=100)
    res = client.post(
        url(rosa), json={"wasteKg": 1}, headers=api_headers(make_account(role=RoleId.HOUSEHOLD))
    )
    assert res.status_code == 403


def test_an_account_without_the_household_module_is_refused_with_403(client, api_headers):
    rosa = make_member("Rosa", points=100)
    res = client.post(url(rosa), json={"wasteKg": 1}, headers=api_headers(make_account(modules=[1])))
    assert res.status_code == 403


def test_another_barangays_member_is_404(client, staff_headers):
    other = Barangay(name="Barangay Malayo", is_active=True)
    db.session.add(other)
    db.session.commit()
    with tenancy.scoped(other.id):
        far = make_member("Far", points=100)
    res = client.post(url(far), json={"wasteKg": 1}, headers=staff_headers)
    assert res.status_code == 404
    with tenancy.scoped(other.id):
        db.session.expire_all()
        assert db.session.get(HouseholdMember, far.id).points == 100


def test_an_unknown_member_is_404(client, staff_headers):
    assert (
        client.post(
            "/api/household/members/999999/waste", json={"wasteKg": 1}, headers=staff_headers
        ).status_code
        == 404
    )


def test_the_points_cap_is_refused_naming_the_field(client, staff_headers):
    rosa = make_member("Rosa", points=10_000_000 - 10)
    res = client.post(url(rosa), json={"wasteKg": 5}, headers=staff_headers)
    assert res.status_code == 400 and res.json["field"] == "wasteKg"


def test_a_retry_with_the_same_idempotency_key_credits_once(client, staff_headers):
    rosa = make_member("Rosa", points=100)
    sent = {**staff_headers, "Idempotency-Key": "entry-7f3a"}
    first = client.post(url(rosa), json={"wasteKg": 1}, headers=sent)
    again = client.post(url(rosa), json={"wasteKg": 1}, headers=sent)
    assert first.status_code == again.status_code == 201
    assert again.json == first.json and again.json["balance"] == 130
    db.session.expire_all()
    assert db.session.get(HouseholdMember, rosa.id).points == 130
