"""/api/household: schedules, leaderboard, rewards with images, claims and the point rule."""

import io
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import CollectionSchedule, HouseholdMember, PointRule, Reward, RewardClaim, RoleId
from tests.factories import make_account
from tests.factories_household import make_member, make_reward, make_schedule, png_bytes


def count(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


GOOD = {
    "maintenancePerson": "Juan Dela Cruz",
    "collectorContact": "0917 123 4567",
    "area": "Purok 1",
    "dateOfCollection": "2026-12-01",
}


def test_create_schedule_and_read_it_back(client, staff_headers):
    res = client.post("/api/household/schedules", json=GOOD, headers=staff_headers)
    assert res.status_code == 201, res.json
    body = res.json["schedule"]
    assert body["maintenancePerson"] == "Juan Dela Cruz" and body["areas"] == ["Purok 1"]
    assert body["status"] == "Pending" and body["totalWaste"] is None
    assert body["dateOfCollection"] == "2026-12-01"
    listing = client.get("/api/household/schedules", headers=staff_headers).json
    assert listing["total"] == 1 and listing["data"][0]["id"] == body["id"]


def test_update_schedule_areas_status_and_weight(client, staff_headers):
    schedule = make_schedule(areas=("Purok 1",))
    res = client.put(
        f"/api/household/schedules/{schedule.id}",
        headers=staff_headers,
        json={"areas": ["Purok 2", "Package 3"], "status": "Collected", "totalWaste": "12.5"},
    )
    assert res.status_code == 200, res.json
    body = res.json["schedule"]
    assert body["areas"] == ["Purok 2", "Package 3"] and body["area"] == "Purok 2, Package 3"
    assert (
        body["status"] == "Collected" and body["totalWaste"] == 12.5 and body["totalWasteText"] == "12.5 kg"
    )
    assert body["maintenancePerson"] == schedule.maintenance_person  # untouched


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"maintenancePerson": "  "}, "maintenancePerson", "Maintenance is required."),
        (
            {"collectorContact": "nobody"},
            "collectorContact",
            "Contact of Maintenance must be a phone number or an e-mail address.",
        ),
        ({"area": []}, "areas", "Area is required."),
        (
            {"dateOfCollection": "2026-13-01"},
            "dateOfCollection",
            "Date of Collection must be a valid date (YYYY-MM-DD).",
        ),
        (
            {"dateOfCollection": 20261201},
            "dateOfCollection",
            "Date of Collection must be a valid date (YYYY-MM-DD).",
        ),
        ({"totalWaste": "-2"}, "totalWaste", "Total waste cannot be negative."),
        ({"totalWaste": "lots"}, "totalWaste", "Total waste must be a number of kilograms."),
        ({"status": "Lost"}, "status", "Status must be one of: Pending, Collecting, Collected, Cancelled."),
        (
            {"maintenancePerson": "x" * 101},
            "maintenancePerson",
            "Maintenance must be at most 100 characters.",
        ),
        ({"maintenancePerson": 42}, "maintenancePerson", "Maintenance must be text."),
    ],
)
def test_bad_schedule_is_refused_naming_the_field(client, staff_headers, change, field, message):
    res = client.post("/api/household/schedules", json={**GOOD, **change}, headers=staff_headers)
    assert res.status_code == 400
    assert res.json["field"] == field and res.json["message"] == message
    assert count(CollectionSchedule) == 0


def test_bad_update_changes_nothing(client, staff_headers):
    schedule = make_schedule(areas=("Purok 1",), person="Ana")
    res = client.patch(
        f"/api/household/schedules/{schedule.id}",
        headers=staff_headers,
        json={"maintenancePerson": "Bea", "totalWaste": -1},
    )
    assert res.status_code == 400 and res.json["errors"] == {"totalWaste": "Total waste cannot be negative."}
    db.session.expire_all()
    assert db.session.get(CollectionSchedule, schedule.id).maintenance_person == "Ana"


@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        ({"data": "{not json", "content_type": "application/json"}, 400),
        ({"json": ["a list"]}, 400),
        ({"data": "name=x", "content_type": "application/x-www-form-urlencoded"}, 415),
        ({}, 400),
    ],
)
def test_malformed_bodies_are_refused(client, staff_headers, kwargs, status):
    res = client.post("/api/household/schedules", headers=staff_headers, **kwargs)
    assert res.status_code == status and res.is_json and res.json["message"]


def test_unknown_schedule_is_404(client, staff_headers):
    assert client.get("/api/household/schedules/999", headers=staff_headers).status_code == 404
    res = client.put("/api/household/schedules/999", json=GOOD, headers=staff_headers)
    assert res.status_code == 404 and res.json["message"] == "Collection schedule not found."


def test_search_and_filter_schedules(client, staff_headers):
    make_schedule(areas=("Purok 1",), person="Ana Cruz", status="Collected", grams=1000)
    make_schedule(areas=("Package 2", "Purok 5"), person="Ben Reyes")
    make_schedule(areas=("Purok 3",), person="Cora 100%_", contact="cora@example.ph")

    def names(query):
        res = client.get(f"/api/household/schedules?{query}", headers=staff_headers)
        assert res.status_code == 200, res.json
        return sorted(r["maintenancePerson"] for r in res.json["data"])

    assert names("q=purok 5") == ["Ben Reyes"]
    assert names("q=CRUZ") == ["Ana Cruz"]
    assert names("q=example.ph") == ["Cora 100%_"]
    assert names("q=100%25_") == ["Cora 100%_"]  # % and _ are literal, not wildcards
    assert names("q=%25") == ["Cora 100%_"]
    assert names("status=Collected") == ["Ana Cruz"]
    assert names("status=Pending&q=purok") == ["Ben Reyes", "Cora 100%_"]
    bad = client.get("/api/household/schedules?status=Lost", headers=staff_headers)
    assert bad.status_code == 400 and bad.json["field"] == "status"
    assert client.get("/api/household/schedules?page=0", headers=staff_headers).status_code == 400


def test_schedules_need_the_household_module(client, api_headers):
    assert client.get("/api/household/schedules").status_code == 401
    operator = make_account(role=RoleId.OPERATOR)  # holds Household, but schedules are staff-only
    res = client.post("/api/household/schedules", json=GOOD, headers=api_headers(operator))
    assert res.status_code == 403 and count(CollectionSchedule) == 0
    household = make_account(role=RoleId.HOUSEHOLD)
    assert client.get("/api/household/schedules", headers=api_headers(household)).status_code == 200


def test_leaderboard_is_ranked_by_points_and_keeps_ranks_when_filtered(client, staff_headers):
    make_member("Low", points=10)
    make_member("Top", points=900, barangay="Barangay Parang")
    make_member("Tie A", points=500, active=False)
    make_member("Tie B", points=500)
    rows = client.get("/api/household/leaderboard", headers=staff_headers).json["data"]
    assert [(r["rank"], r["name"], r["points"]) for r in rows] == [
        (1, "Top", 900),
        (2, "Tie A", 500),
        (2, "Tie B", 500),
        (4, "Low", 10),
    ]
    assert rows[1]["status"] == "Inactive" and rows[0]["barangay"] == "Barangay Parang"
    active = client.get("/api/household/leaderboard?status=Active&q=ti", headers=staff_headers).json["data"]
    assert [(r["rank"], r["name"]) for r in active] == [(2, "Tie B")]


def reward_form(**fields):
    data = {"reward": "Rice (5 kg)", "status": "Available", "points": "500", "area": "Purok 1"}
    data.update(fields)
    return data


def test_create_reward_with_image_and_get_the_image_back(client, staff_headers, app):
    image = png_bytes()
    res = client.post(
        "/api/household/rewards",
        headers=staff_headers,
        data=reward_form(image=(io.BytesIO(image), "../../evil name.png")),
    )
    assert res.status_code == 201, res.json
    reward = res.json["reward"]
    assert reward["name"] == "Rice (5 kg)" and reward["points"] == 500 and reward["status"] == "Available"
    assert reward["image"] == f"/api/household/rewards/{reward['id']}/image"
    stored = db.session.get(Reward, reward["id"])
    assert stored.image_file.endswith(".png") and "evil" not in stored.image_file
    files = list((Path(app.config["SIBOL_UPLOAD_DIR"]) / "rewards").iterdir())
    assert [f.name for f in files] == [stored.image_file]
    got = client.get(reward["image"], headers=staff_headers)
    assert got.status_code == 200 and got.data == image and got.mimetype == "image/png"
    assert got.headers["X-Content-Type-Options"] == "nosniff"
    listing = client.get("/api/household/rewards", headers=staff_headers).json["data"]
    assert listing[0]["image"] == reward["image"]


def test_reward_images_need_the_household_module(client, api_headers):
    from sibol.household import rewards

    reward = rewards.create_reward({"reward": "Bag", "points": "5"}, io.BytesIO(png_bytes()))
    url = f"/api/household/rewards/{reward.id}/image"
    assert client.get(url).status_code == 401  # anonymous first: the test app context shares g
    assert client.get(f"/household/rewards/{reward.id}/image").status_code == 302
    operator = make_account(role=RoleId.OPERATOR, modules=[1, 2, 3, 5])  # Household removed
    assert client.get(url, headers=api_headers(operator)).status_code == 403


def test_reward_without_image_as_json(client, staff_headers):
    res = client.post(
        "/api/household/rewards",
        headers=staff_headers,
        json={"reward": "Tote bag", "eligibility": 150, "status": "not available"},
    )
    assert res.status_code == 201
    assert res.json["reward"]["status"] == "Not Available" and res.json["reward"]["image"] is None
    assert (
        client.get(
            f"/api/household/rewards/{res.json['reward']['id']}/image", headers=staff_headers
        ).status_code
        == 404
    )


def test_non_image_upload_is_refused_and_nothing_is_stored(client, staff_headers, app):
    res = client.post(
        "/api/household/rewards",
        headers=staff_headers,
        data=reward_form(image=(io.BytesIO(b"%PDF-1.4 not an image"), "photo.png")),
    )
    assert res.status_code == 415 and res.json["field"] == "image"
    assert res.json["message"] == "Upload an image (PNG, JPEG, GIF or WebP)."
    assert count(Reward) == 0
    folder = Path(app.config["SIBOL_UPLOAD_DIR"]) / "rewards"
    assert not folder.exists() or not any(folder.iterdir())


def test_image_over_10_mb_is_refused_with_413(client, staff_headers):
    big = png_bytes() + b"\x00" * (10 * 1024 * 1024)
    res = client.post(
        "/api/household/rewards", headers=staff_headers, data=reward_form(image=(io.BytesIO(big), "big.png"))
    )
    assert res.status_code == 413 and res.json["field"] == "image"
    assert res.json["message"] == "The image is larger than 10 MB. Choose a smaller image."
    assert count(Reward) == 0


def test_request_over_the_hard_limit_is_413_json(client, staff_headers):
    huge = b"\x89PNG\r\n\x1a\n" + b"\x00" * (11 * 1024 * 1024 + 10)
    res = client.post(
        "/api/household/rewards",
        headers=staff_headers,
        data=reward_form(image=(io.BytesIO(huge), "huge.png")),
    )
    assert res.status_code == 413 and res.is_json
    assert count(Reward) == 0


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"reward": ""}, "reward"),
        ({"points": "-5"}, "points"),
        ({"points": "many"}, "points"),
        ({"status": "Sold out"}, "status"),
        ({"area": "x" * 101}, "area"),
    ],
)
def test_bad_reward_fields_are_refused(client, staff_headers, fields, field):
    res = client.post(
        "/api/household/rewards",
        headers=staff_headers,
        data=reward_form(image=(io.BytesIO(png_bytes()), "ok.png"), **fields),
    )
    assert res.status_code == 400 and res.json["field"] == field
    assert count(Reward) == 0


def test_reward_filter_and_search(client, staff_headers):
    make_reward("Rice", status="Available", area="Purok 1")
    make_reward("Voucher", status="Not Available")

    def names(q):
        return [
            r["name"] for r in client.get(f"/api/household/rewards?{q}", headers=staff_headers).json["data"]
        ]

    assert names("status=Not Available") == ["Voucher"]
    assert names("q=purok") == ["Rice"]


def test_claim_spends_points_and_is_listed(client, staff_headers):
    member = make_member("Rosa", points=600)
    reward = make_reward("Rice", points=500)
    assert client.get("/api/household/claims", headers=staff_headers).json["data"] == []
    res = client.post(
        f"/api/household/rewards/{reward.id}/claims", json={"memberId": member.id}, headers=staff_headers
    )
    assert res.status_code == 201, res.json
    assert db.session.get(HouseholdMember, member.id).points == 100
    claims = client.get("/api/household/claims", headers=staff_headers).json["data"]
    assert [(c["name"], c["reward"], c["points"]) for c in claims] == [("Rosa", "Rice", 500)]
    again = client.post(
        f"/api/household/rewards/{reward.id}/claims", json={"memberId": member.id}, headers=staff_headers
    )
    assert again.status_code == 409 and "has 100 points" in again.json["message"]
    assert count(RewardClaim) == 1


def test_claim_refusals(client, staff_headers):
    member = make_member(points=1000)
    gone = make_reward(status="Not Available")
    assert (
        client.post(
            f"/api/household/rewards/{gone.id}/claims", json={"memberId": member.id}, headers=staff_headers
        ).status_code
        == 409
    )
    reward = make_reward()
    assert (
        client.post(
            f"/api/household/rewards/{reward.id}/claims", json={"memberId": 9999}, headers=staff_headers
        ).status_code
        == 404
    )
    bad = client.post(
        f"/api/household/rewards/{reward.id}/claims", json={"memberId": "x"}, headers=staff_headers
    )
    assert bad.status_code == 400 and bad.json["field"] == "memberId"
    assert (
        client.post(
            "/api/household/rewards/9999/claims", json={"memberId": member.id}, headers=staff_headers
        ).status_code
        == 404
    )
    assert count(RewardClaim) == 0


def test_point_rule_defaults_and_persists(client, staff_headers):
    rule = client.get("/api/household/point-rule", headers=staff_headers).json["pointRule"]
    assert rule == {"wasteKg": 1.0, "points": 30, "text": "1 kg of food waste = 30 points"}
    res = client.put(
        "/api/household/point-rule", json={"wasteKg": "2.5", "points": 80}, headers=staff_headers
    )
    assert res.status_code == 200 and res.json["pointRule"]["text"] == "2.5 kg of food waste = 80 points"
    assert client.get("/api/household/point-rule", headers=staff_headers).json["pointRule"]["points"] == 80
    assert count(PointRule) == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"wasteKg": "0", "points": 30}, "wasteKg"),
        ({"wasteKg": "-1", "points": 30}, "wasteKg"),
        ({"wasteKg": "one", "points": 30}, "wasteKg"),
        ({"wasteKg": 1, "points": 0}, "points"),
        ({"wasteKg": 1, "points": "-30"}, "points"),
        ({"wasteKg": 1, "points": 2.5}, "points"),
        ({"wasteKg": 1}, "points"),
    ],
)
def test_bad_point_rule_is_refused_and_the_old_rule_stays(client, staff_headers, body, field):
    client.put("/api/household/point-rule", json={"wasteKg": 2, "points": 50}, headers=staff_headers)
    res = client.put("/api/household/point-rule", json=body, headers=staff_headers)
    assert res.status_code == 400 and res.json["field"] == field
    db.session.expire_all()
    rule = db.session.scalar(select(PointRule))
    assert (rule.waste_g, rule.points) == (2000, 50)


def test_cookie_writes_need_csrf_but_bearer_writes_do_not(app, client, login, staff, staff_headers):
    login(staff)
    app.config["WTF_CSRF_ENABLED"] = True
    refused = client.post("/api/household/schedules", json=GOOD)
    assert refused.status_code == 400 and count(CollectionSchedule) == 0
    assert client.post("/api/household/schedules", json=GOOD, headers=staff_headers).status_code == 201


def test_date_is_stored_as_given(client, staff_headers):
    client.post(
        "/api/household/schedules", json={**GOOD, "dateOfCollection": "2026-02-28"}, headers=staff_headers
    )
    assert db.session.scalar(select(CollectionSchedule)).collection_date == date(2026, 2, 28)


def test_ids_beyond_a_database_integer_are_404_not_500(client, staff_headers):
    huge = "9" * 25
    assert client.get(f"/api/household/schedules/{huge}", headers=staff_headers).status_code == 404
    assert client.put(f"/api/household/schedules/{huge}", json=GOOD, headers=staff_headers).status_code == 404
    assert client.get(f"/api/household/rewards/{huge}/image", headers=staff_headers).status_code == 404
    res = client.post(f"/api/household/rewards/{huge}/claims", json={"memberId": 1}, headers=staff_headers)
    assert res.status_code == 404
