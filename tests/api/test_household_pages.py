"""The /household page: tabs, tables, search and filter, and forms that save (JavaScript off)."""

import io
import re
from pathlib import Path

from sqlalchemy import func, select

from sibol.extensions import db
from sibol.household import seed as household_seed
from sibol.models import CollectionSchedule, PointRule, Reward, RoleId
from tests.factories import make_account
from tests.factories_household import make_member, make_reward, make_schedule, png_bytes
from tests.support.html import page, rows


def count(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


def test_tabs_with_schedule_first_and_the_spec_columns(client, staff_client):
    household_seed.sample_data()
    html = page(client, "/household")
    tabs = re.findall(r'<a href="/household\?tab=\w+"( aria-current="page")?>([^<]+)</a>', html)
    assert [t[1] for t in tabs] == ["Schedule", "Leaderboard", "Rewards", "Claimed Rewards", "Point System"]
    assert tabs[0][0]  # Schedule is the current tab
    for header in (
        "Maintenance Person",
        "Area",
        "Status",
        "Collector Contact",
        "Date of Collection",
        "Total Waste",
    ):
        assert f'<th scope="col">{header}</th>' in html
    assert 'badge--green">Collected' in html and 'badge--yellow">Pending' in html
    leaderboard = page(client, "/household?tab=leaderboard")
    assert [r[:2] for r in rows(leaderboard, "leaderboard-table")][:2] == [
        ["1", "Rosa Mendoza"],
        ["2", "Carlos Bautista"],
    ]
    assert 'badge--grey">Inactive' in leaderboard and 'badge--green">Active' in leaderboard
    rewards = page(client, "/household?tab=rewards")
    assert rows(rewards, "rewards-table")[0] == ["1", "Rice (5 kg)", "All areas", "500", "Available", "Claim"]
    claimed = page(client, "/household?tab=claimed")
    assert "No rewards have been claimed yet." in claimed
    points = page(client, "/household?tab=points")
    assert "1 kg of food waste = 30 points" in points
    assert re.search(r'name="wasteKg"[^>]*value="1"[^>]*disabled', points)
    assert page(client, "/household?tab=nonsense").count('aria-current="page">Schedule') == 1


def test_add_schedule_form_saves_and_shows_the_row(client, staff_client):
    res = client.post(
        "/household/schedules",
        data={
            "maintenancePerson": "Juan Dela Cruz",
            "collectorContact": "juan@example.ph",
            "areas": "Purok 1, Package 2",
            "dateOfCollection": "2026-12-01",
        },
    )
    assert res.status_code == 302 and res.headers["Location"].endswith("/household?tab=schedule")
    html = page(client, "/household?tab=schedule")
    assert "Collection schedule saved." in html
    assert rows(html, "schedule-table")[0][:6] == [
        "Juan Dela Cruz",
        "Purok 1, Package 2",
        "Pending",
        "juan@example.ph",
        "Dec 1, 2026",
        "—",
    ]


def test_bad_schedule_form_shows_every_field_error_and_saves_nothing(client, staff_client):
    res = client.post(
        "/household/schedules",
        data={
            "maintenancePerson": "",
            "collectorContact": "nobody",
            "areas": " , ",
            "dateOfCollection": "31/12/2026",
        },
    )
    assert res.status_code == 400
    html = res.get_data(as_text=True)
    assert '<dialog id="add-schedule" class="modal" aria-labelledby="add-schedule-title" open>' in html
    for message in (
        "Maintenance is required.",
        "Contact of Maintenance must be a phone number or an e-mail address.",
        "Area is required.",
        "Date of Collection must be a valid date (YYYY-MM-DD).",
    ):
        assert message in html
    assert 'value="nobody"' in html  # what was typed stays
    assert count(CollectionSchedule) == 0


def test_edit_schedule_opens_from_a_row_and_saves_chips(client, staff_client):
    schedule = make_schedule(areas=("Purok 1",), person="Ana")
    html = page(client, "/household?tab=schedule")
    assert f'href="/household?tab=schedule&amp;edit={schedule.id}"' in html
    dialog = page(client, f"/household?tab=schedule&edit={schedule.id}")
    assert '<dialog id="edit-schedule"' in dialog and 'data-island="household-chips"' in dialog
    assert f'action="/household/schedules/{schedule.id}"' in dialog
    res = client.post(
        f"/household/schedules/{schedule.id}",
        data={
            "maintenancePerson": "Ana",
            "collectorContact": "0917 000 0000",
            "area": ["Purok 1", "Package 7"],
            "dateOfCollection": "2026-01-15",
            "status": "Collected",
            "totalWaste": "3.5",
        },
    )
    assert res.status_code == 302
    assert rows(page(client, "/household"), "schedule-table")[0][:6] == [
        "Ana",
        "Purok 1, Package 7",
        "Collected",
        "0917 000 0000",
        "Jan 15, 2026",
        "3.5 kg",
    ]


def test_edit_schedule_with_bad_weight_keeps_the_old_values(client, staff_client):
    schedule = make_schedule(areas=("Purok 1",), person="Ana")
    res = client.post(
        f"/household/schedules/{schedule.id}",
        data={
            "maintenancePerson": "Bea",
            "collectorContact": "0917 000 0000",
            "areas": "Purok 1",
            "dateOfCollection": "2026-01-15",
            "status": "Collected",
            "totalWaste": "-4",
        },
    )
    assert res.status_code == 400
    html = res.get_data(as_text=True)
    assert "Total waste cannot be negative." in html and '<dialog id="edit-schedule"' in html
    db.session.expire_all()
    assert db.session.get(CollectionSchedule, schedule.id).maintenance_person == "Ana"
    assert client.post("/household/schedules/999", data={}).status_code == 404
    assert "no longer exists" in page(client, "/household?edit=999")
    assert "no longer exists" in page(client, "/household?edit=" + "9" * 25)
    assert client.post("/household/schedules/" + "9" * 25, data={}).status_code == 404


def test_search_and_filter_the_schedule_table(client, staff_client):
    make_schedule(areas=("Purok 1",), person="Ana Cruz", status="Collected")
    make_schedule(areas=("Package 2",), person="Ben Reyes")
    make_schedule(areas=("Purok 3",), person="Cora Lim")
    names = lambda url: [r[0] for r in rows(page(client, url), "schedule-table")]  # noqa: E731
    assert names("/household?tab=schedule&q=purok") == ["Cora Lim", "Ana Cruz"]
    assert names("/household?tab=schedule&status=Pending") == ["Cora Lim", "Ben Reyes"]
    assert names("/household?tab=schedule&status=Pending&q=purok") == ["Cora Lim"]
    html = page(client, "/household?tab=schedule&q=nobody")
    assert "No collection schedules found." in html and "Showing 0 results" in html
    assert names("/household?tab=schedule&status=Bogus&page=x&per_page=7") == [
        "Cora Lim",
        "Ben Reyes",
        "Ana Cruz",
    ]


def test_leaderboard_and_rewards_search_and_filter(client, staff_client):
    make_member("Rosa", points=50, active=False)
    make_member("Rico", points=70)
    make_reward("Rice", status="Not Available")
    make_reward("Bag")
    lb = rows(page(client, "/household?tab=leaderboard&status=Inactive"), "leaderboard-table")
    assert lb == [["2", "Rosa", "Barangay Fortune", "50", "Inactive", "Record waste"]]
    assert [r[1] for r in rows(page(client, "/household?tab=leaderboard&q=ric"), "leaderboard-table")] == [
        "Rico"
    ]
    assert [r[1] for r in rows(page(client, "/household?tab=rewards&status=Available"), "rewards-table")] == [
        "Bag"
    ]


def test_schedule_table_pages_by_ten(client, staff_client):
    for day in range(1, 13):
        make_schedule(person=f"P{day:02d}", when=__import__("datetime").date(2026, 1, day))
    first = page(client, "/household")
    assert len(rows(first, "schedule-table")) == 10 and "1-10 of 12" in first
    second = page(client, "/household?page=2")
    assert [r[0] for r in rows(second, "schedule-table")] == ["P02", "P01"]


def test_add_reward_form_with_image(client, staff_client, app):
    res = client.post(
        "/household/rewards",
        content_type="multipart/form-data",
        data={
            "reward": "Rice (5 kg)",
            "status": "Available",
            "points": "500",
            "area": "",
            "image": (io.BytesIO(png_bytes()), "rice.png"),
        },
    )
    assert res.status_code == 302
    reward = db.session.scalar(select(Reward))
    html = page(client, "/household?tab=rewards")
    assert f'src="/household/rewards/{reward.id}/image"' in html
    assert client.get(f"/household/rewards/{reward.id}/image").data == png_bytes()


def test_add_reward_form_refuses_non_images_and_big_files_with_a_field_error(client, staff_client, app):
    res = client.post(
        "/household/rewards",
        content_type="multipart/form-data",
        data={"reward": "Rice", "points": "5", "image": (io.BytesIO(b"MZ\x90\x00 an exe"), "rice.png")},
    )
    assert res.status_code == 415
    html = res.get_data(as_text=True)
    assert "Upload an image (PNG, JPEG, GIF or WebP)." in html and '<dialog id="add-reward"' in html
    big = png_bytes() + b"\x00" * (10 * 1024 * 1024)
    res = client.post(
        "/household/rewards",
        content_type="multipart/form-data",
        data={"reward": "Rice", "points": "5", "image": (io.BytesIO(big), "rice.png")},
    )
    assert res.status_code == 413
    assert "The image is larger than 10 MB. Choose a smaller image." in res.get_data(as_text=True)
    res = client.post(
        "/household/rewards", content_type="multipart/form-data", data={"reward": "", "points": "-1"}
    )
    assert res.status_code == 400
    assert "Reward is required." in res.get_data(as_text=True)
    assert count(Reward) == 0
    folder = Path(app.config["SIBOL_UPLOAD_DIR"]) / "rewards"
    assert not folder.exists() or not any(folder.iterdir())


def test_reward_without_an_image_is_saved(client, staff_client):
    res = client.post(
        "/household/rewards",
        content_type="multipart/form-data",
        data={
            "reward": "Bag",
            "status": "Not Available",
            "points": "150",
            "area": "Purok 2",
            "image": (io.BytesIO(b""), ""),
        },
    )
    assert res.status_code == 302
    assert rows(page(client, "/household?tab=rewards"), "rewards-table") == [
        ["1", "Bag", "Purok 2", "150", "Not Available", ""]
    ]  # no Claim: not available


def test_point_rule_edit_and_save_persist(client, staff_client):
    editing = page(client, "/household?tab=points&edit=1")
    assert not re.search(r'name="wasteKg"[^>]*disabled', editing)
    res = client.post("/household/point-rule", data={"wasteKg": "2", "points": "45"})
    assert res.status_code == 302 and res.headers["Location"].endswith("tab=points")
    html = page(client, "/household?tab=points")
    assert "2 kg of food waste = 45 points" in html
    bad = client.post("/household/point-rule", data={"wasteKg": "-1", "points": "abc"})
    assert bad.status_code == 400
    text = bad.get_data(as_text=True)
    assert "Total food waste must be more than 0 kg." in text and "Points must be a whole number." in text
    assert "2 kg of food waste = 45 points" in text
    rule = db.session.scalar(select(PointRule))
    assert (rule.waste_g, rule.points) == (2000, 45)


def test_household_needs_its_module(client, login):
    assert client.get("/household").status_code == 302
    operator = make_account(role=RoleId.OPERATOR, modules=[1, 2, 3, 5])  # Household removed
    login(operator)
    assert client.get("/household").status_code == 403
    assert client.post("/household/schedules", data={}).status_code == 403
    assert client.post("/household/point-rule", data={"wasteKg": "1", "points": "1"}).status_code == 403
    assert count(PointRule) == 0


def test_forms_without_csrf_token_are_refused(app, client, staff_client):
    app.config["WTF_CSRF_ENABLED"] = True
    res = client.post("/household/point-rule", data={"wasteKg": "5", "points": "5"})
    assert res.status_code == 400 and count(PointRule) == 0
    html = page(client, "/household?tab=points&edit=1")
    token = html.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    ok = client.post("/household/point-rule", data={"wasteKg": "5", "points": "5", "csrf_token": token})
    assert ok.status_code == 302 and count(PointRule) == 1


def test_household_page_loads_no_react(client, staff_client):
    html = page(client, "/household")
    assert "/static/dist/assets/household-page-" in html
    assert "/static/dist/assets/react-" not in html  # plain TypeScript: no React on this page
