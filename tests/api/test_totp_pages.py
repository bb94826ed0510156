"""Two-step sign-in on the pages, without JavaScript (plain form posts): set-up on /profile with
the QR code and the key as text, the recovery codes shown once, the sign-in's second form after
the password (the password never carried to it), Google's sign-in asking for the code too, and
turning it off. In English and Filipino."""

from __future__ import annotations

import base64
import json
import re
import zlib
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import select, update

from sibol.extensions import db
from sibol.identity import totp
from sibol.models import RoleId, utcnow
from sibol.models.admin import AuditEntry
from sibol.models.auth import AccountToken, TokenPurpose
from tests.factories import DEFAULT_PASSWORD, make_account
from tests.support.google import google_flow, google_user
from tests.support.totp import Clock, code_at

FIL = {"Accept-Language": "fil-PH,fil;q=0.9"}


@pytest.fixture
def app_overrides(provider, monkeypatch):
    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")  # the local provider speaks http
    provider.refuse = False
    return provider.config()


@pytest.fixture
def clock(monkeypatch) -> Clock:
    found = Clock()
    monkeypatch.setattr(totp, "clock", found)
    return found


def text(res) -> str:
    return res.get_data(as_text=True)


def enrol_on_profile(client, clock) -> tuple[str, list[str]]:
    """The profile's forms: start, read the key from the page, confirm; the key and the codes."""
    res = client.post("/profile/two-factor/start")
    assert res.status_code == 302 and res.headers["Location"] == "/profile#two-factor"
    page = text(client.get("/profile"))
    secret = re.search(r'data-secret="([A-Z2-7]{32})"', page).group(1)
    done = client.post("/profile/two-factor/confirm", data={"code": code_at(secret, clock)})
    assert done.status_code == 200
    codes = re.search(r'<pre id="recovery-codes"[^>]*>(.*?)</pre>', text(done), re.S).group(1).split()
    clock.step()
    return secret, codes


def session_cookie_text(client) -> str:
    """What the browser's signed session cookie holds, decoded (it is signed, not encrypted)."""
    raw = client.get_cookie("session").value
    compressed = raw.startswith(".")
    payload = raw.lstrip(".").split(".")[0]
    data = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    return (zlib.decompress(data) if compressed else data).decode()


def test_set_up_on_the_profile_shows_the_qr_code_the_key_and_the_codes_once(client, login, clock):
    account = make_account()
    login(account)
    page = text(client.get("/profile"))
    assert 'id="two-factor"' in page and "Set up two-step sign-in" in page
    client.post("/profile/two-factor/start")
    res = client.get("/profile")
    page = text(res)
    assert "<svg" in page.split('id="two-factor-qr"')[1][:200]  # the QR code, made on the server
    secret = re.search(r'data-secret="([A-Z2-7]{32})"', page).group(1)
    grouped = " ".join(secret[i : i + 4] for i in range(0, 32, 4))
    assert grouped in page  # the key as text, for typing
    # A wrong code: the form again with the message at its field, nothing turned on.
    wrong = client.post("/profile/two-factor/confirm", data={"code": "12345"})
    assert wrong.status_code == 400 and "Enter the 6-digit code" in text(wrong)
    done = client.post("/profile/two-factor/confirm", data={"code": code_at(secret, clock)})
    body = text(done)
    assert done.status_code == 200 and done.headers["Cache-Control"] == "no-store"
    codes = re.search(r'<pre id="recovery-codes"[^>]*>(.*?)</pre>', body, re.S).group(1).split()
    assert len(codes) == 10
    assert 'data-copy="recovery-codes"' in body and "data-print" in body  # Copy and Print
    page = text(client.get("/profile"))
    assert "10 recovery codes left." in page and secret not in page and codes[0] not in page
    assert "Turn off two-step sign-in" in page


def test_sign_in_asks_for_the_code_on_a_second_form(client, login, clock):
    account = make_account()
    login(account)
    secret, codes = enrol_on_profile(client, clock)
    client.post("/logout")

    res = client.post(
        "/login?next=/profile", data={"username": account.username, "password": DEFAULT_PASSWORD}
    )
    page = text(res)
    assert res.status_code == 200 and 'name="totp"' in page and 'action="/login/code"' in page
    assert 'name="password"' not in page and DEFAULT_PASSWORD not in page
    assert DEFAULT_PASSWORD not in session_cookie_text(client)
    assert client.get("/profile").status_code == 302  # not signed in yet
    # The pending sign-in is kept on the server: only its hash is stored.
    assert db.session.scalar(select(AccountToken).where(AccountToken.purpose == TokenPurpose.SECOND_STEP))

    wrong = client.post("/login/code", data={"totp": "000000" if code_at(secret, clock) != "000000" else "1"})
    assert wrong.status_code == 401 and "That code is not right" in text(wrong)
    assert client.get("/login/code").status_code == 200  # still waiting for the right one
    res = client.post("/login/code", data={"totp": code_at(secret, clock)})
    assert res.status_code == 302 and res.headers["Location"] == "/profile"
    assert client.get("/profile").status_code == 200
    # The pending sign-in is spent.
    assert client.get("/login/code").status_code == 302

    client.post("/logout")
    client.post("/login", data={"username": account.username, "password": DEFAULT_PASSWORD})
    res = client.post("/login/code", data={"totp": codes[0]})
    assert res.status_code == 302 and client.get("/profile").status_code == 200
    actions = list(db.session.scalars(select(AuditEntry.action).where(AuditEntry.target_id == account.id)))
    assert actions == ["totp_enrol", "recovery_code_used"]


def test_the_second_form_in_filipino(client, login, clock):
    account = make_account()
    login(account)
    enrol_on_profile(client, clock)
    client.post("/logout")
    res = client.post(
        "/login", data={"username": account.username, "password": DEFAULT_PASSWORD}, headers=FIL
    )
    page = text(res)
    assert "Buksan ang iyong authenticator app" in page and "I-verify" in page
    wrong = client.post("/login/code", data={"totp": "abc"}, headers=FIL)
    assert "Mali ang code na iyan" in text(wrong)


def test_a_pending_sign_in_ends_after_five_minutes_and_after_five_wrong_codes(client, login, clock):
    account = make_account()
    login(account)
    secret, _codes = enrol_on_profile(client, clock)
    client.post("/logout")
    client.post("/login", data={"username": account.username, "password": DEFAULT_PASSWORD})
    db.session.execute(
        update(AccountToken)
        .where(AccountToken.purpose == TokenPurpose.SECOND_STEP)
        .values(expires_at=utcnow() - timedelta(seconds=1))
    )
    db.session.commit()
    res = client.post("/login/code", data={"totp": code_at(secret, clock)})
    assert res.status_code == 302 and res.headers["Location"] == "/login"
    assert "Your sign-in took too long" in text(client.get("/login"))
    assert client.get("/profile").status_code == 302
    # Without a pending sign-in the second form sends the browser back to the first.
    assert client.get("/login/code").headers["Location"] == "/login"


def test_wrong_codes_on_the_page_count_with_the_lockout(client, login, clock):
    account = make_account()
    login(account)
    secret, _codes = enrol_on_profile(client, clock)
    client.post("/logout")
    client.post("/login", data={"username": account.username, "password": DEFAULT_PASSWORD})
    answers = [client.post("/login/code", data={"totp": "aaaaa-aaaaa"}).status_code for _ in range(5)]
    assert answers == [401, 401, 401, 401, 429]
    page = text(client.post("/login", data={"username": account.username, "password": DEFAULT_PASSWORD}))
    assert "Too many failed sign-in attempts" in page


def test_turning_it_off_on_the_profile(client, login, clock):
    account = make_account()
    login(account)
    secret, _codes = enrol_on_profile(client, clock)
    res = client.post(
        "/profile/two-factor/disable", data={"password": "Wr0ng!pass", "code": code_at(secret, clock)}
    )
    assert res.status_code == 400 and "Your password is not right." in text(res)
    res = client.post("/profile/two-factor/disable", data={"password": DEFAULT_PASSWORD, "code": ""})
    assert res.status_code == 400
    res = client.post(
        "/profile/two-factor/disable", data={"password": DEFAULT_PASSWORD, "code": code_at(secret, clock)}
    )
    assert res.status_code == 302 and res.headers["Location"] == "/profile#two-factor"
    assert "Two-step sign-in is off." in text(client.get("/profile"))
    client.post("/logout")
    res = client.post("/login", data={"username": account.username, "password": DEFAULT_PASSWORD})
    assert res.status_code == 302  # the password alone again


def test_google_sign_in_asks_for_the_code_too(client, login, provider, clock):
    account = make_account(email="ana@example.test")
    login(account)
    secret, _codes = enrol_on_profile(client, clock)
    client.post("/logout")
    res = google_flow(client, provider, google_user())
    assert res.status_code == 302 and res.headers["Location"] == "/login/code"
    assert client.get("/dashboard").status_code == 302  # not signed in before the code
    assert 'name="totp"' in text(client.get("/login/code"))
    res = client.post("/login/code", data={"totp": code_at(secret, clock)})
    location = urlsplit(res.headers["Location"])
    fragment = parse_qs(location.fragment)
    assert json.loads(fragment["user"][0])["Username"] == account.username
    token = fragment["token"][0]
    assert client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert client.get("/profile").status_code == 200


def test_google_sign_in_of_an_account_that_must_set_it_up_goes_to_the_set_up(app, client, provider):
    app.config["SIBOL_REQUIRE_2FA"] = "admins"
    make_account(role=RoleId.ADMIN, email="ana@example.test")
    res = google_flow(client, provider, google_user())
    assert res.status_code == 302 and res.headers["Location"] == "/profile/two-factor"
    assert client.get("/dashboard").headers["Location"] == "/profile/two-factor"
    assert "Set up two-step sign-in" in text(client.get("/profile/two-factor"))
