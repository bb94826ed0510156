"""Add Household, Record waste and Claim on the /household page, with JavaScript off: the
dialogs open from links, the forms post to page routes, and a refusal saves nothing."""

import re

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import HouseholdMember, PointRule, RewardClaim, RoleId
from tests.factories import make_account
from tests.factories_household import make_member, make_reward
from tests.support.html import page, rows


def dialog(html: str, dialog_id: str) -> str:
    """The <dialog> element's HTML; fails if it is not rendered open."""
    match = re.search(rf'<dialog id="{dialog_id}"[^>]*>(.*?)</dialog>', html, re.S)
    assert match, f"no dialog {dialog_id}"
    assert " open" in html.split(f'<dialog id="{dialog_id}"', 1)[1].split(">", 1)[0], f"{dialog_id} is closed"
    return match.group(1)


def field_error(html: str, error_id: str) -> str:
    match = re.search(rf'<p class="field__error" id="{error_id}" *>([^<]*)</p>', html)
    assert match, f"no visible error {error_id}"
    return match.group(1)


def count(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


def points_of(member_id: int) -> int:
    db.session.expire_all()
    return db.session.get(HouseholdMember, member_id).points


# Add Household ----------------------------------------------------------------------------------


def test_add_household_dialog_opens_from_a_link_with_the_barangays(client, staff_client):
    html = page(client, "/household?tab=leaderboard")
    assert 'href="/household?tab=leaderboard&amp;modal=add-household"' in html
    assert '<dialog id="add-household" class="modal" aria-labelledby="add-household-title">' in html  # closed
    box = dialog(page(client, "/household?tab=leaderboard&modal=add-household"), "add-household")
    # A barangay's households are its own; the choice is the signed-in barangay.
    assert re.findall(r"<option>(Barangay [^<]+)</option>", box) == ["Barangay Fortune"]
    assert 'name="points" type="text" value="0"' in box  # starting points default to 0
    assert "<option selected>Active</option>" in box


def test_add_household_saves_and_the_leaderboard_stays_ranked(client, staff_client):
    make_member("Rosa", points=1250)
    make_member("Teresa", points=520)
    res = client.post(
        "/household/members",
        data={
            "name": "  Nilo   Santos ",
            "barangay": "Barangay Fortune",
            "points": "800",
            "status": "Inactive",
        },
    )
    assert res.status_code == 302 and res.headers["Location"].endswith("/household?tab=leaderboard")
    html = page(client, "/household?tab=leaderboard")
    assert "Nilo Santos added to the leaderboard." in html
    assert [r[:5] for r in rows(html, "leaderboard-table")] == [
        ["1", "Rosa", "Barangay Fortune", "1,250", "Active"],
        ["2", "Nilo Santos", "Barangay Fortune", "800", "Inactive"],
        ["3", "Teresa", "Barangay Fortune", "520", "Active"],
    ]
    # Points left empty start at 0, status empty means Active.
    assert (
        client.post(
            "/household/members",
            data={"name": "Zed", "barangay": "barangay fortune", "points": "", "status": ""},
        ).status_code
        == 302
    )
    zed = db.session.scalar(select(HouseholdMember).where(HouseholdMember.name == "Zed"))
    assert (zed.points, zed.is_active, zed.barangay) == (0, True, "Barangay Fortune")


@pytest.mark.parametrize(
    "data, field, message",
    [
        ({"name": "", "barangay": "Barangay Fortune", "points": "0"}, "member-name", "Name is required."),
        (
            {"name": "x" * 101, "barangay": "Barangay Fortune"},
            "member-name",
            "Name must be at most 100 characters.",
        ),
        ({"name": "Nilo", "barangay": ""}, "member-barangay", "Barangay is required."),
        ({"name": "Nilo", "barangay": "Atlantis"}, "member-barangay", "Choose a barangay from the list."),
        (
            {"name": "Nilo", "barangay": "Barangay Fortune", "points": "-5"},
            "member-points",
            "Starting points cannot be negative.",
        ),
        (
            {"name": "Nilo", "barangay": "Barangay Fortune", "points": "2.5"},
            "member-points",
            "Starting points must be a whole number.",
        ),
        (
            {"name": "Nilo", "barangay": "Barangay Fortune", "points": "ten"},
            "member-points",
            "Starting points must be a whole number.",
        ),
        (
            {"name": "Nilo", "barangay": "Barangay Fortune", "points": "99999999999"},
            "member-points",
            "Starting points must be at most 10,000,000.",
        ),
    ],
)
def test_add_household_refusals_reopen_the_dialog_and_save_nothing(
    client, staff_client, data, field, message
):
    res = client.post("/household/members", data=data)
    assert res.status_code == 400
    html = res.get_data(as_text=True)
    box = dialog(html, "add-household")
    assert field_error(box, f"{field}-error") == message
    if data.get("name") and len(data["name"]) < 100:
        assert 'value="Nilo"' in box  # what was typed stays
    if data.get("barangay") == "Barangay Fortune":
        assert "<option selected>Barangay Fortune</option>" in box
    assert count(HouseholdMember) == 0


def test_add_household_bad_status_is_a_field_error(client, staff_client):
    res = client.post(
        "/household/members", data={"name": "Nilo", "barangay": "Barangay Fortune", "status": "Gone"}
    )
    assert res.status_code == 400
    assert "Status must be one of: Active, Inactive." in dialog(res.get_data(as_text=True), "add-household")
    assert count(HouseholdMember) == 0


# Record waste -----------------------------------------------------------------------------------


def test_record_waste_converts_with_the_saved_point_rule(client, staff_client):
    rosa = make_member("Rosa", points=100)
    carlos = make_member("Carlos", points=200)
    html = page(client, "/household?tab=leaderboard")
    assert f'href="/household?tab=leaderboard&amp;record={rosa.id}"' in html
    box = dialog(page(client, f"/household?tab=leaderboard&record={rosa.id}"), "record-waste")
    assert "Rosa" in box and "Points follow the Point System: 1 kg = 30 points (rounded down)" in box
    res = client.post(f"/household/members/{rosa.id}/waste", data={"wasteKg": "4"})
    assert res.status_code == 302 and res.headers["Location"].endswith("/household?tab=leaderboard")
    html = page(client, "/household?tab=leaderboard")
    assert "Rosa: 4 kg of food waste recorded, 120 points earned (220 in all)." in html
    assert [r[1:4] for r in rows(html, "leaderboard-table")] == [  # Rosa now leads
        ["Rosa", "Barangay Fortune", "220"],
        ["Carlos", "Barangay Fortune", "200"],
    ]
    # The Point System tab changes the conversion: 2 kg = 75 points; 1.3 kg -> 48.75 -> 48.
    assert client.post("/household/point-rule", data={"wasteKg": "2", "points": "75"}).status_code == 302
    assert client.post(f"/household/members/{carlos.id}/waste", data={"wasteKg": "1.3"}).status_code == 302
    assert points_of(carlos.id) == 248 and points_of(rosa.id) == 220


@pytest.mark.parametrize(
    "kg, message",
    [
        ("", "Food waste is required."),
        ("abc", "Food waste must be a number of kilograms."),
        ("-2", "Food waste must be more than 0 kg."),
        ("0", "Food waste must be more than 0 kg."),
        ("NaN", "Food waste must be a number of kilograms."),
        ("100001", "Food waste must be at most 100,000 kg."),
        ("0.02", "0.02 kg earns no points: the Point System gives 30 points for 1 kg."),
    ],
)
def test_record_waste_refusals_keep_the_dialog_open_and_points_unchanged(client, staff_client, kg, message):
    rosa = make_member("Rosa", points=100)
    res = client.post(f"/household/members/{rosa.id}/waste", data={"wasteKg": kg})
    assert res.status_code == 400
    box = dialog(res.get_data(as_text=True), "record-waste")
    assert field_error(box, "record-wasteKg-error") == message
    assert f'name="wasteKg" type="text" value="{kg}"' in box
    assert points_of(rosa.id) == 100


def test_record_waste_cannot_pass_the_points_ceiling(client, staff_client):
    rosa = make_member("Rosa", points=9_999_990)
    res = client.post(f"/household/members/{rosa.id}/waste", data={"wasteKg": "1"})
    assert res.status_code == 400
    assert (
        field_error(res.get_data(as_text=True), "record-wasteKg-error")
        == "A member can hold at most 10,000,000 points."
    )
    assert points_of(rosa.id) == 9_999_990


def test_record_waste_for_an_unknown_member(client, staff_client):
    assert client.post("/household/members/9999/waste", data={"wasteKg": "1"}).status_code == 404
    assert (
        client.post("/household/members/99999999999999999999/waste", data={"wasteKg": "1"}).status_code == 404
    )
    html = page(client, "/household?tab=leaderboard&record=9999")
    assert "That row no longer exists." in html and '<dialog id="record-waste"' not in html


# Claim ------------------------------------------------------------------------------------------


def test_claim_from_the_rewards_tab_spends_points_and_lists_the_claim(client, staff_client):
    rosa = make_member("Rosa", points=600)
    make_member("Ramon", points=900, active=False)
    rice = make_reward("Rice", points=500)
    gone = make_reward("Tote", points=10, status="Not Available")
    html = page(client, "/household?tab=rewards")
    assert f'href="/household?tab=rewards&amp;claim={rice.id}"' in html
    assert f"claim={gone.id}" not in html  # only available rewards offer Claim
    box = dialog(page(client, f"/household?tab=rewards&claim={rice.id}"), "claim-reward")
    assert "<strong>Rice</strong> · 500 points" in box
    assert re.findall(r'<option value="(\d+)"', box) == [str(rosa.id)]  # active members only
    res = client.post(
        f"/household/rewards/{rice.id}/claims", data={"memberId": str(rosa.id), "confirmed": "1"}
    )
    assert res.status_code == 302 and res.headers["Location"].endswith("/household?tab=claimed")
    claimed = page(client, "/household?tab=claimed")
    assert "Rosa claimed Rice for 500 points (100 left)." in claimed
    assert [r[1:4] for r in rows(claimed, "claims-table")] == [["Rosa", "Rice", "500"]]
    assert points_of(rosa.id) == 100


@pytest.mark.parametrize(
    "case, error_id, message",
    [
        ("short", "claim-member-error", "Rosa has 100 points; this reward needs 500."),
        ("inactive", "claim-member-error", "Only active members can claim rewards."),
        ("unknown", "claim-member-error", "Household member not found."),
        ("empty", "claim-member-error", "Member is required."),
        ("text", "claim-member-error", "Member must be a whole number."),
        ("unavailable", "claim-reward-error", "This reward is not available."),
    ],
)
def test_claim_refusals_are_field_errors_and_save_nothing(client, staff_client, case, error_id, message):
    rosa = make_member("Rosa", points=100 if case == "short" else 1000, active=case != "inactive")
    reward = make_reward("Rice", points=500, status="Not Available" if case == "unavailable" else "Available")
    member_id = {"unknown": "9999", "empty": "", "text": "Rosa"}.get(case, str(rosa.id))
    res = client.post(f"/household/rewards/{reward.id}/claims", data={"memberId": member_id})
    assert res.status_code in (400, 404, 409)
    box = dialog(res.get_data(as_text=True), "claim-reward")
    assert field_error(box, error_id) == message
    if case == "short":
        assert f'<option value="{rosa.id}" selected>' in box  # the choice stays
    assert count(RewardClaim) == 0 and points_of(rosa.id) == (100 if case == "short" else 1000)


def test_claim_for_an_unknown_reward(client, staff_client):
    rosa = make_member("Rosa", points=1000)
    assert client.post("/household/rewards/9999/claims", data={"memberId": str(rosa.id)}).status_code == 404
    assert "That row no longer exists." in page(client, "/household?tab=rewards&claim=9999")
    assert count(RewardClaim) == 0 and points_of(rosa.id) == 1000


def test_new_forms_need_the_household_module(client, login):
    login(make_account(role=RoleId.OPERATOR, modules=[1, 2, 3, 5]))  # Household removed
    rosa = make_member("Rosa", points=1000)
    reward = make_reward("Rice", points=10)
    for url, data in (
        ("/household/members", {"name": "X", "barangay": "Barangay Fortune"}),
        (f"/household/members/{rosa.id}/waste", {"wasteKg": "1"}),
        (f"/household/rewards/{reward.id}/claims", {"memberId": str(rosa.id), "confirmed": "1"}),
    ):
        assert client.post(url, data=data).status_code == 403
    assert count(HouseholdMember) == 1 and count(RewardClaim) == 0 and points_of(rosa.id) == 1000
    assert count(PointRule) == 0
