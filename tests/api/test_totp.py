"""Two-step sign-in through the API: setting up an authenticator (/api/me/totp), signing in with
its code or a recovery code (/api/auth/login), codes used once, wrong codes counted by the
lockout, turning it off, and the audit of each."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from sibol.extensions import db, limiter
from sibol.identity import totp
from sibol.models import ApiToken, RoleId
from sibol.models.admin import AuditEntry
from sibol.models.auth import AccountTotp, RecoveryCode
from tests.factories import DEFAULT_PASSWORD, make_account
from tests.support.totp import Clock, code_at, enrol_api

WRONG = "Wr0ng!pass"  # noqa: S105 - a test password


@pytest.fixture
def clock(monkeypatch) -> Clock:
    found = Clock()
    monkeypatch.setattr(totp, "clock", found)
    return found


def login(client, account, **extra):
    return client.post(
        "/api/auth/login", json={"username": account.username, "password": DEFAULT_PASSWORD, **extra}
    )


def audit_actions(account) -> list[str]:
    return list(
        db.session.scalars(
            select(AuditEntry.action).where(AuditEntry.target_id == account.id).order_by(AuditEntry.id)
        )
    )


def test_enrolment_answers_a_secret_and_its_uri_then_ten_recovery_codes(client, api_headers, clock):
    account = make_account()
    headers = api_headers(account)
    res = client.post("/api/me/totp", headers=headers)
    assert res.status_code == 201
    secret, uri = res.json["secret"], res.json["otpauthUri"]
    assert re.fullmatch(r"[A-Z2-7]{32}", secret)
    assert uri.startswith(f"otpauth://totp/SIBOL:{account.username}?") and f"secret={secret}" in uri
    assert "issuer=SIBOL" in uri
    assert client.get("/api/me/totp", headers=headers).json["pending"] is True

    res = client.post("/api/me/totp/confirm", json={"code": code_at(secret, clock)}, headers=headers)
    assert res.status_code == 200
    codes = res.json["recoveryCodes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    assert all(re.fullmatch(r"[a-z2-9]{5}-[a-z2-9]{5}", code) for code in codes)
    state = client.get("/api/me/totp", headers=headers).json
    assert state["enabled"] is True and state["recoveryCodesLeft"] == 10 and "secret" not in state
    # Neither the secret nor a recovery code is stored as it was shown.
    row = db.session.get(AccountTotp, account.id)
    assert secret not in row.secret_encrypted and row.confirmed_at is not None
    stored = set(db.session.scalars(select(RecoveryCode.code_hash)))
    assert len(stored) == 10 and not stored & {c.replace("-", "") for c in codes} and not stored & set(codes)
    # Once confirmed, the secret is never answered again: a new set-up is refused.
    again = client.post("/api/me/totp", headers=headers)
    assert again.status_code == 409 and "secret" not in again.json
    assert audit_actions(account) == ["totp_enrol"]


def test_a_new_start_replaces_a_secret_still_waiting(client, api_headers, clock):
    headers = api_headers(make_account())
    first = client.post("/api/me/totp", headers=headers).json["secret"]
    second = client.post("/api/me/totp", headers=headers).json["secret"]
    assert first != second
    res = client.post("/api/me/totp/confirm", json={"code": code_at(first, clock)}, headers=headers)
    assert res.status_code == 400 and res.json["field"] == "code"
    res = client.post("/api/me/totp/confirm", json={"code": code_at(second, clock)}, headers=headers)
    assert res.status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({}, 400, "code"),
        ({"code": ""}, 400, "code"),
        ({"code": 123456}, 400, "code"),
        ({"code": "12345"}, 400, "code"),
        ({"code": "abcdef"}, 400, "code"),
        ({"code": "1" * 21}, 400, "code"),
    ],
)
def test_confirm_refuses_a_missing_or_malformed_code(client, api_headers, clock, body, status, field):
    headers = api_headers(make_account())
    client.post("/api/me/totp", headers=headers)
    res = client.post("/api/me/totp/confirm", json=body, headers=headers)
    assert res.status_code == status and res.json["field"] == field and res.json["message"]
    assert client.get("/api/me/totp", headers=headers).json["enabled"] is False


def test_confirm_refuses_a_wrong_code_and_a_set_up_never_started(client, api_headers, clock):
    headers = api_headers(make_account())
    res = client.post("/api/me/totp/confirm", json={"code": "123456"}, headers=headers)
    assert res.status_code == 409 and res.json["field"] == "code"
    secret = client.post("/api/me/totp", headers=headers).json["secret"]
    wrong = f"{(int(code_at(secret, clock)) + 1) % 1_000_000:06d}"
    res = client.post("/api/me/totp/confirm", json={"code": wrong}, headers=headers)
    assert res.status_code == 400 and res.json["field"] == "code"
    # A code two steps old is out of the window.
    res = client.post("/api/me/totp/confirm", json={"code": code_at(secret, clock, -2)}, headers=headers)
    assert res.status_code == 400
    res = client.post("/api/me/totp/confirm", data="code=1", headers=headers)
    assert res.status_code == 415
    assert client.get("/api/me/totp", headers=headers).json["enabled"] is False
    assert db.session.scalar(select(func.count()).select_from(RecoveryCode)) == 0


def test_sign_in_asks_for_the_code_then_takes_it(client, api_headers, clock):
    account = make_account()
    secret, _codes = enrol_api(client, api_headers(account), clock)
    tokens_before = db.session.scalar(select(func.count()).select_from(ApiToken))

    res = login(client, account)
    assert res.status_code == 401
    assert res.json["totpRequired"] is True and res.json["field"] == "totp" and res.json["message"]
    assert "token" not in res.json and "user" not in res.json
    res = login(client, account, totp="")
    assert res.status_code == 401 and res.json["totpRequired"] is True
    assert db.session.scalar(select(func.count()).select_from(ApiToken)) == tokens_before

    res = login(client, account, totp=code_at(secret, clock))
    assert res.status_code == 200 and res.json["token"] and res.json["user"]["Username"] == account.username
    assert "totpEnrollmentRequired" not in res.json
    headers = {"Authorization": f"Bearer {res.json['token']}"}
    assert client.get("/api/me", headers=headers).status_code == 200


def test_a_wrong_password_is_refused_before_any_code_is_asked(client, api_headers, clock):
    account = make_account()
    secret, _codes = enrol_api(client, api_headers(account), clock)
    res = client.post(
        "/api/auth/login",
        json={"username": account.username, "password": WRONG, "totp": code_at(secret, clock)},
    )
    assert res.status_code == 401 and "totpRequired" not in res.json
    # The code was not spent by that refused sign-in.
    assert login(client, account, totp=code_at(secret, clock)).status_code == 200


@pytest.mark.parametrize("value", [123456, True, ["123456"], {"a": 1}, "9" * 41])
def test_a_malformed_code_field_is_400_naming_totp(client, api_headers, clock, value):
    account = make_account()
    enrol_api(client, api_headers(account), clock)
    res = login(client, account, totp=value)
    assert res.status_code == 400 and res.json["field"] == "totp"


def test_a_code_is_used_once_and_never_an_older_one(client, api_headers, clock):
    account = make_account()
    secret, _codes = enrol_api(client, api_headers(account), clock)
    used = code_at(secret, clock)
    assert login(client, account, totp=used).status_code == 200
    again = login(client, account, totp=used)
    assert again.status_code == 401 and again.json["field"] == "totp" and again.json["totpRequired"] is True
    # The step before is still in the window, but older than the one used: refused too.
    assert login(client, account, totp=code_at(secret, clock, -1)).status_code == 401
    # The next step's code (a phone clock a little ahead) is a new one.
    assert login(client, account, totp=code_at(secret, clock, 1)).status_code == 200
    clock.step(2)
    assert login(client, account, totp=code_at(secret, clock)).status_code == 200


def test_a_recovery_code_signs_in_once(client, api_headers, clock):
    account = make_account()
    headers = api_headers(account)
    _secret, codes = enrol_api(client, headers, clock)
    res = login(client, account, totp=codes[0])
    assert res.status_code == 200 and res.json["token"]
    again = login(client, account, totp=codes[0])
    assert again.status_code == 401 and again.json["field"] == "totp"
    # Typed without the hyphen, in capitals, with spaces: the same code.
    loose = codes[1].replace("-", " ").upper()
    assert login(client, account, totp=loose).status_code == 200
    assert client.get("/api/me/totp", headers=headers).json["recoveryCodesLeft"] == 8
    assert audit_actions(account) == ["totp_enrol", "recovery_code_used", "recovery_code_used"]
    # Another account's code is not this account's.
    other = make_account()
    _s, other_codes = enrol_api(client, api_headers(other), clock)
    assert login(client, account, totp=other_codes[0]).status_code == 401


def test_wrong_codes_count_with_the_lockout_and_asking_does_not(client, api_headers, clock):
    account = make_account()
    secret, _codes = enrol_api(client, api_headers(account), clock)
    limiter.reset()
    # Sign-ins that only learn a code is needed guess nothing: they never lock.
    assert [login(client, account).status_code for _ in range(7)] == [401] * 7
    limiter.reset()
    wrong = f"{(int(code_at(secret, clock)) + 1) % 1_000_000:06d}"
    answers = [login(client, account, totp=wrong).status_code for _ in range(5)]
    assert answers == [401, 401, 401, 401, 429]
    res = login(client, account, totp=code_at(secret, clock))
    assert res.status_code == 429 and res.json["code"] == "locked"
    # The right code was not spent while locked.
    assert db.session.get(AccountTotp, account.id).last_step < int(clock.now) // totp.STEP_SECONDS


def test_turning_it_off_needs_the_password_and_a_code(client, api_headers, clock):
    account = make_account()
    headers = api_headers(account)
    secret, codes = enrol_api(client, headers, clock)
    code = code_at(secret, clock)
    for body, field in [
        ({"code": code}, "password"),
        ({"password": DEFAULT_PASSWORD}, "code"),
        ({"password": "", "code": code}, "password"),
        ({"password": DEFAULT_PASSWORD, "code": 5}, "code"),
        ({"password": WRONG, "code": code}, "password"),
        ({"password": DEFAULT_PASSWORD, "code": "000000" if code != "000000" else "111111"}, "code"),
    ]:
        res = client.delete("/api/me/totp", json=body, headers=headers)
        assert res.status_code == 400 and res.json["field"] == field, (body, res.json)
    assert client.get("/api/me/totp", headers=headers).json["enabled"] is True
    res = client.delete("/api/me/totp", json={"password": DEFAULT_PASSWORD, "code": code}, headers=headers)
    assert res.status_code == 204 and res.data == b""
    assert client.get("/api/me/totp", headers=headers).json["enabled"] is False
    assert db.session.scalar(select(func.count()).select_from(RecoveryCode)) == 0
    assert login(client, account).status_code == 200  # the password alone again
    assert (
        client.delete(
            "/api/me/totp", json={"password": DEFAULT_PASSWORD, "code": code}, headers=headers
        ).status_code
        == 409
    )
    assert audit_actions(account) == ["totp_enrol", "totp_disable"]
    del codes


def test_a_recovery_code_turns_it_off_and_wrong_tries_count_with_the_lockout(client, api_headers, clock):
    account = make_account()
    headers = api_headers(account)
    _secret, codes = enrol_api(client, headers, clock)
    limiter.reset()
    answers = [
        client.delete(
            "/api/me/totp", json={"password": DEFAULT_PASSWORD, "code": "aaaaa-aaaaa"}, headers=headers
        )
        for _ in range(5)
    ]
    assert [a.status_code for a in answers] == [400, 400, 400, 400, 429]
    assert answers[-1].json["field"] == "code"
    res = client.delete(
        "/api/me/totp", json={"password": DEFAULT_PASSWORD, "code": codes[0]}, headers=headers
    )
    assert res.status_code == 429  # locked for this address, like the sign-in
    db.session.execute(db.delete(db.metadata.tables["login_failures"]))
    db.session.commit()
    res = client.delete(
        "/api/me/totp", json={"password": DEFAULT_PASSWORD, "code": codes[0]}, headers=headers
    )
    assert res.status_code == 204


def test_each_route_needs_a_signed_in_account(client):
    assert client.post("/api/me/totp").status_code == 401
    assert client.post("/api/me/totp/confirm", json={"code": "123456"}).status_code == 401
    assert client.delete("/api/me/totp", json={"password": "x", "code": "1"}).status_code == 401


def test_the_admin_console_lists_the_accounts_second_factor_events(client, api_headers, clock):
    account = make_account()
    _secret, codes = enrol_api(client, api_headers(account), clock)
    login(client, account, totp=codes[0])
    admin = make_account(role=RoleId.ADMIN)
    res = client.get(f"/api/admin/{account.id}/audit", headers=api_headers(admin))
    assert res.status_code == 200, res.json
    entries = res.json["entries"]
    assert [e["action"] for e in entries] == ["recovery_code_used", "totp_enrol"]
    assert entries[0]["summary"] == f"{account.username} signed in with a recovery code"
    assert entries[1]["summary"] == f"{account.username} set up two-step sign-in"
