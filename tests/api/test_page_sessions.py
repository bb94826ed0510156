"""Page sessions recorded on the server: sign-out ends every copy of the
cookie; disabling, a password reset and "sign out everywhere" end all of an account's sessions."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import ApiToken
from sibol.models.auth import PageSession
from tests.factories import DEFAULT_PASSWORD, make_account, make_admin


def copy_of(client, app):
    """A second client holding a copy of `client`'s cookie, as a thief would."""
    thief = app.test_client()
    cookie = client.get_cookie("session")
    thief.set_cookie("session", cookie.value)
    return thief


def sign_in(app, account):
    browser = app.test_client()
    res = browser.post("/login", data={"username": account.username, "password": DEFAULT_PASSWORD})
    assert res.status_code == 302
    return browser


def test_page_logout_ends_the_session_for_every_copy_of_the_cookie(app):
    user = make_account()
    browser = sign_in(app, user)
    thief = copy_of(browser, app)
    assert thief.get("/dashboard").status_code == 200
    assert browser.post("/logout").status_code == 302
    refused = thief.get("/dashboard")
    assert refused.status_code == 302 and "/login" in refused.headers["Location"]
    assert db.session.scalar(select(func.count(PageSession.id))) == 0


def test_api_logout_ends_the_page_session_too(app):
    user = make_account()
    browser = app.test_client()
    res = browser.post("/api/auth/login", json={"username": user.username, "password": DEFAULT_PASSWORD})
    token = res.json["token"]
    thief = copy_of(browser, app)
    assert thief.get("/dashboard").status_code == 200
    out = browser.post("/api/auth/logout", headers={"Authorization": f"Bearer {token}"})
    assert out.status_code == 200
    # The bearer logout carried no cookie; the cookie's own logout ends its session.
    browser.post("/api/auth/logout")
    assert thief.get("/dashboard").status_code == 302
    assert thief.get("/api/modules/allowed").status_code == 401


def test_api_logout_with_only_the_bearer_token_ends_that_sign_ins_page_session(app):
    user = make_account()
    browser = app.test_client()
    res = browser.post("/api/auth/login", json={"username": user.username, "password": DEFAULT_PASSWORD})
    token = res.json["token"]
    other_sign_in = sign_in(app, user)  # another sign-in of the same account stays
    assert browser.get("/dashboard").status_code == 200
    cookieless = app.test_client()  # a client that kept the token and never had the cookie
    out = cookieless.post("/api/auth/logout", headers={"Authorization": f"Bearer {token}"})
    assert out.status_code == 200
    gone = browser.get("/dashboard")
    assert gone.status_code == 302 and "/login" in gone.headers["Location"]
    assert (
        browser.get("/api/modules/allowed", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    )
    assert other_sign_in.get("/dashboard").status_code == 200
    assert db.session.scalar(select(func.count(PageSession.id))) == 1
    # A revoked token ends nothing more: the other sign-in's session is untouched.
    cookieless.post("/api/auth/logout", headers={"Authorization": f"Bearer {token}"})
    assert other_sign_in.get("/dashboard").status_code == 200


def test_disabling_ends_every_session_and_token(app, api_headers):
    admin = make_admin(username="boss")
    user = make_account(username="worker")
    browsers = [sign_in(app, user), sign_in(app, user)]
    headers = api_headers(user)
    boss = sign_in(app, admin)
    res = boss.post(f"/admin/accounts/{user.id}/active", data={"active": "0", "confirmed": "1"})
    assert res.status_code == 302
    for browser in browsers:
        assert browser.get("/dashboard").status_code == 302
    assert app.test_client().get("/api/modules/allowed", headers=headers).status_code == 401
    assert db.session.scalar(select(func.count(PageSession.id)).where(PageSession.account_id == user.id)) == 0


def test_password_reset_ends_every_session(app):
    user = make_account(email="reset.me@example.test")
    browser = sign_in(app, user)
    app.config["SIBOL_DEBUG_CODES"] = True
    other = app.test_client()
    code = other.post("/api/auth/forgot-password", json={"email": user.email}).json["debugCode"]
    res = other.post(
        "/api/auth/reset-password", json={"email": user.email, "code": code, "newPassword": "N3w!passw0rd"}
    )
    assert res.status_code == 200
    assert browser.get("/dashboard").status_code == 302


def test_the_profile_lists_sessions_and_signs_out_everywhere(app, api_headers):
    user = make_account()
    first, second = sign_in(app, user), sign_in(app, user)
    headers = api_headers(user)
    listed = second.get("/api/me/sessions").json["data"]
    browsers = [s for s in listed if s["kind"] == "browser"]
    assert len(browsers) == 2 and [s["kind"] for s in listed].count("token") == 1
    assert [s["current"] for s in browsers].count(True) == 1
    assert {s["address"] for s in browsers} == {"127.0.0.1"}
    page = second.get("/profile").get_data(as_text=True)
    assert len(re.findall(r"<tr data-session", page)) == 2 and "This browser" in page
    assert "1 app sign-in (API tokens) active." in page
    res = second.post("/profile/sign-out-everywhere")
    assert res.status_code == 200
    assert "2 browser sessions and 1 app sign-in ended" in res.get_data(as_text=True)
    for browser in (first, second):
        assert browser.get("/dashboard").status_code == 302
    assert app.test_client().get("/api/modules/allowed", headers=headers).status_code == 401
    assert db.session.scalar(select(func.count(ApiToken.id)).where(ApiToken.revoked_at.is_(None))) == 0


def test_the_old_sessions_page_leads_to_the_profile(app):
    browser = sign_in(app, make_account())
    res = browser.get("/sessions")
    assert res.status_code == 302 and res.headers["Location"] == "/profile#sessions"
    assert browser.get("/api/auth/sessions").status_code == 404  # one sessions API: /api/me/sessions


def test_sign_out_everywhere_through_the_api_with_a_bearer_token(app, api_headers):
    user = make_account()
    browser = sign_in(app, user)
    headers = api_headers(user)
    client = app.test_client()
    listed = client.get("/api/me/sessions", headers=headers).json["data"]
    # The bearer caller is its token, not the browser.
    assert [s["kind"] for s in listed] == ["browser", "token"]
    assert [s["current"] for s in listed] == [False, True]
    res = client.post("/api/me/sign-out-everywhere", headers=headers)
    assert res.status_code == 200 and res.json["endedSessions"] == 1 and res.json["revokedTokens"] == 1
    assert browser.get("/dashboard").status_code == 302
    assert client.get("/api/me/sessions", headers=headers).status_code == 401


def test_sessions_need_a_sign_in(client):
    assert client.get("/api/me/sessions").status_code == 401
    assert client.post("/api/me/sign-out-everywhere").status_code == 401
    assert client.get("/sessions").status_code == 302
    assert "/login" in client.get("/sessions").headers["Location"]


def test_a_session_idle_past_the_limit_has_ended(app):
    from sibol.identity.sessions import IDLE_LIMIT
    from sibol.models import utcnow

    user = make_account()
    browser = sign_in(app, user)
    row = db.session.scalar(select(PageSession))
    row.last_seen_at = utcnow() - IDLE_LIMIT - timedelta(minutes=1)
    db.session.commit()
    assert browser.get("/dashboard").status_code == 302
    sign_in(app, user)  # a new sign-in clears idle rows of every account
    assert db.session.scalar(select(func.count(PageSession.id))) == 1
