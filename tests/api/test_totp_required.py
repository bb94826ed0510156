"""SIBOL_REQUIRE_2FA: off (default), admins (Admins and City Admins) or all. An account asked for a
second factor that has none signs in with `totpEnrollmentRequired` and may then use only the
set-up routes until it has one."""

from __future__ import annotations

import pytest

from sibol import config
from sibol.identity import totp
from sibol.models import RoleId
from tests.factories import DEFAULT_PASSWORD, make_account
from tests.support.totp import Clock, code_at

ADMINS = {"SIBOL_REQUIRE_2FA": "admins"}
ALL = {"SIBOL_REQUIRE_2FA": "all"}


@pytest.fixture
def clock(monkeypatch) -> Clock:
    found = Clock()
    monkeypatch.setattr(totp, "clock", found)
    return found


def login(client, account, **extra):
    return client.post(
        "/api/auth/login", json={"username": account.username, "password": DEFAULT_PASSWORD, **extra}
    )


def bearer(res) -> dict:
    return {"Authorization": f"Bearer {res.json['token']}"}


@pytest.mark.parametrize("app_overrides", [ADMINS])
@pytest.mark.parametrize("role", [RoleId.ADMIN, RoleId.CITY_ADMIN])
def test_admins_mode_makes_admins_enrol_before_anything_else(client, clock, role):
    fields = {"barangay_id": None} if role == RoleId.CITY_ADMIN else {}
    admin = make_account(role=role, **fields)
    res = login(client, admin)
    assert res.status_code == 200 and res.json["totpEnrollmentRequired"] is True and res.json["token"]
    headers = bearer(res)
    for method, path in [
        ("get", "/api/me"),
        ("get", "/api/modules/allowed"),
        ("get", "/api/admin/accounts"),
        ("post", "/api/me/sign-out-everywhere"),
    ]:
        refused = getattr(client, method)(path, headers=headers)
        assert refused.status_code == 403, path
        assert refused.json["code"] == "totp_enrollment_required" and refused.json["totpEnrollmentRequired"]
        assert "two-step sign-in" in refused.json["message"]
    # The set-up routes are open to it.
    assert client.get("/api/me/totp", headers=headers).json["required"] is True
    secret = client.post("/api/me/totp", headers=headers).json["secret"]
    done = client.post("/api/me/totp/confirm", json={"code": code_at(secret, clock)}, headers=headers)
    assert done.status_code == 200 and len(done.json["recoveryCodes"]) == 10
    # Set up: the same token opens everything its role allows.
    assert client.get("/api/me", headers=headers).status_code == 200
    assert client.get("/api/modules/allowed", headers=headers).status_code == 200
    # From now on its sign-in asks for the code like any enrolled account's.
    clock.step()
    assert login(client, admin).json["totpRequired"] is True
    res = login(client, admin, totp=code_at(secret, clock))
    assert res.status_code == 200 and "totpEnrollmentRequired" not in res.json


@pytest.mark.parametrize("app_overrides", [ADMINS])
@pytest.mark.parametrize("role", [RoleId.STAFF, RoleId.OPERATOR, RoleId.HOUSEHOLD])
def test_admins_mode_leaves_other_roles_alone(client, role):
    res = login(client, make_account(role=role))
    assert res.status_code == 200 and "totpEnrollmentRequired" not in res.json
    assert client.get("/api/me", headers=bearer(res)).status_code == 200


@pytest.mark.parametrize("app_overrides", [ALL])
def test_all_mode_asks_every_account(client, clock):
    res = login(client, make_account(role=RoleId.HOUSEHOLD))
    assert res.json["totpEnrollmentRequired"] is True
    assert client.get("/api/me", headers=bearer(res)).status_code == 403


@pytest.mark.parametrize("app_overrides", [ALL])
def test_an_enrolled_account_that_turns_it_off_must_set_it_up_again(client, clock):
    account = make_account()
    headers = bearer(login(client, account))
    secret = client.post("/api/me/totp", headers=headers).json["secret"]
    client.post("/api/me/totp/confirm", json={"code": code_at(secret, clock)}, headers=headers)
    clock.step()
    off = client.delete(
        "/api/me/totp", json={"password": DEFAULT_PASSWORD, "code": code_at(secret, clock)}, headers=headers
    )
    assert off.status_code == 204
    assert client.get("/api/me", headers=headers).status_code == 403


def test_off_is_the_default(client, app):
    assert app.config["SIBOL_REQUIRE_2FA"] == "off"
    res = login(client, make_account(role=RoleId.ADMIN))
    assert res.status_code == 200 and "totpEnrollmentRequired" not in res.json
    assert client.get("/api/me/totp", headers=bearer(res)).json["required"] is False


@pytest.mark.parametrize("app_overrides", [ADMINS])
def test_the_page_sign_in_sends_the_account_to_the_set_up_and_keeps_it_there(client, clock):
    admin = make_account(role=RoleId.ADMIN)
    res = client.post("/login", data={"username": admin.username, "password": DEFAULT_PASSWORD})
    assert res.status_code == 302 and res.headers["Location"] == "/profile/two-factor"
    for path in ["/dashboard", "/profile", "/admin", "/choose-password"]:
        res = client.get(path)
        assert res.status_code == 302 and res.headers["Location"] == "/profile/two-factor", path
    page = client.get("/profile/two-factor").get_data(as_text=True)
    assert "nothing else is open to this sign-in" in page and "Set up two-step sign-in" in page
    assert client.post("/profile/two-factor/start").status_code == 302
    page = client.get("/profile/two-factor").get_data(as_text=True)
    secret = page.split('data-secret="')[1].split('"')[0]
    done = client.post("/profile/two-factor/confirm", data={"code": code_at(secret, clock)})
    assert done.status_code == 200 and "Your recovery codes" in done.get_data(as_text=True)
    assert client.get("/dashboard").status_code == 200


@pytest.mark.parametrize("value", ["off", "ADMINS", " all ", ""])
def test_the_setting_takes_its_three_values(monkeypatch, value):
    monkeypatch.setenv("SIBOL_REQUIRE_2FA", value)
    assert config.require_2fa() == (value.strip().lower() or "off")


def test_an_unknown_setting_stops_the_start(monkeypatch):
    monkeypatch.setenv("SIBOL_REQUIRE_2FA", "sometimes")
    with pytest.raises(ValueError, match="SIBOL_REQUIRE_2FA"):
        config.require_2fa()
