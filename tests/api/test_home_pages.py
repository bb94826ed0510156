"""Each role starts its day on its own page: after signing in, on "/", and from the brand link;
the home page greets the person by the barangay's clock."""

from __future__ import annotations

from datetime import UTC, datetime
from unittest import mock
from zoneinfo import ZoneInfo

import pytest

from sibol.models import ModuleId, RoleId
from tests.factories import DEFAULT_PASSWORD, make_account

HOMES = {
    RoleId.ADMIN: "/dashboard",
    RoleId.STAFF: "/dashboard",
    RoleId.OPERATOR: "/sibol-machines",
    RoleId.HOUSEHOLD: "/household/my",
    RoleId.CITY_ADMIN: "/city",
}


@pytest.mark.parametrize("role", list(HOMES), ids=lambda r: r.name.lower())
def test_each_role_lands_on_its_home_page(client, login, role):
    account = make_account(role=role, first_name="Ana")
    assert login(account).headers["Location"] == HOMES[role]
    assert client.get("/").headers["Location"] == HOMES[role]
    assert client.get("/login").headers["Location"] == HOMES[role]
    page = client.get(HOMES[role])
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f'class="topbar__brand" href="{HOMES[role]}"' in html
    assert 'id="home-greeting"' in html and ", Ana</p>" in html


def test_a_requested_page_wins_over_the_home_page(client):
    account = make_account(role=RoleId.HOUSEHOLD)
    res = client.post(
        "/login?next=/dashboard", data={"username": account.username, "password": DEFAULT_PASSWORD}
    )
    assert res.headers["Location"] == "/dashboard"
    assert "home-greeting" not in client.get("/dashboard").get_data(as_text=True)  # not its home page


def test_a_role_without_its_home_module_lands_on_the_dashboard(client, login):
    operator = make_account(role=RoleId.OPERATOR, modules=[ModuleId.DASHBOARD, ModuleId.MAINTENANCE])
    assert login(operator).headers["Location"] == "/dashboard"


def test_signed_out_visitors_go_to_sign_in(client):
    assert client.get("/").headers["Location"] == "/login"


def test_the_greeting_follows_the_manila_clock_in_both_languages(client, login):
    account = make_account(role=RoleId.STAFF, first_name="Ana")
    login(account)
    # 23:30 UTC is 7:30 in the morning in Manila, 06:30 UTC half past two in the afternoon.
    times = (
        (23, "Good morning, Ana", "Magandang umaga, Ana"),
        (6, "Good afternoon, Ana", "Magandang hapon, Ana"),
        (12, "Good evening, Ana", "Magandang gabi, Ana"),
    )
    for utc_hour, english, filipino in times:
        manila = datetime(2026, 11, 25, utc_hour, 30, tzinfo=UTC).astimezone(ZoneInfo("Asia/Manila"))
        with mock.patch("sibol.web.home.now", return_value=manila):
            assert english in client.get("/dashboard").get_data(as_text=True)
            client.post("/language", data={"language": "fil", "next": "/dashboard"})
            assert filipino in client.get("/dashboard").get_data(as_text=True)
            client.post("/language", data={"language": "en", "next": "/dashboard"})
