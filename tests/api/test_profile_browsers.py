"""The profile's sessions: one named row per browser or device, each with its own Sign out."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import ApiToken
from sibol.models.auth import PageSession
from sibol.profile.browsers import browser_name
from tests.factories import DEFAULT_PASSWORD, make_account, token_for

ANDROID_CHROME = (
    "Mozilla/5.0 (Linux; Android 14; SM-A155F) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36"
)
IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
WINDOWS_EDGE = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86"
)
SAMSUNG = (
    "Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-A536E) AppleWebKit/537.36 (KHTML, like Gecko) "
    "SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36"
)
MAC_FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0"


@pytest.mark.parametrize(
    ("agent", "name"),
    [
        (ANDROID_CHROME, "Chrome on Android"),
        (IPHONE_SAFARI, "Safari on iPhone"),
        (WINDOWS_EDGE, "Edge on Windows"),
        (SAMSUNG, "Samsung Internet on Android"),
        (MAC_FIREFOX, "Firefox on macOS"),
        ("Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/131.0 Safari/537.36", "Chrome on Linux"),
        ("Werkzeug/3.1", "Unknown browser"),
        ("", "Unknown browser"),
    ],
)
def test_a_user_agent_reads_as_browser_on_system(app, agent, name):
    with app.test_request_context():
        assert browser_name(agent) == name


def sign_in(app, account, agent: str):
    browser = app.test_client()
    res = browser.post(
        "/login",
        data={"username": account.username, "password": DEFAULT_PASSWORD},
        headers={"User-Agent": agent},
    )
    assert res.status_code == 302
    return browser


def session_rows(html: str) -> list[str]:
    table = html[html.index('id="sessions-table"') :].split("</table>")[0]
    return re.findall(r"<tr data-session=.*?</tr>", table, re.S)


def test_sessions_are_named_rows_with_the_current_one_marked(app):
    user = make_account()
    sign_in(app, user, ANDROID_CHROME)
    desk = sign_in(app, user, WINDOWS_EDGE)
    html = desk.get("/profile").get_data(as_text=True)
    rows = session_rows(html)
    assert len(rows) == 2
    current = [r for r in rows if "data-current" in r]
    assert len(current) == 1 and "Edge on Windows" in current[0] and "This browser" in current[0]
    assert any("Chrome on Android" in r and "This browser" not in r for r in rows)
    assert all(">Sign out<" in r and 'data-label="Last activity"' in r for r in rows)


def test_a_token_issued_with_a_browser_sign_in_is_no_separate_session(app):
    user = make_account()
    phone = app.test_client()
    res = phone.post(
        "/api/auth/login",
        json={"username": user.username, "password": DEFAULT_PASSWORD},
        headers={"User-Agent": ANDROID_CHROME},
    )
    assert res.status_code == 200
    token_for(user)  # a token with no browser sign-in: an app, listed on its own
    html = sign_in(app, user, WINDOWS_EDGE).get("/profile").get_data(as_text=True)
    assert len(session_rows(html)) == 2
    assert "1 app sign-in (API tokens) active." in html


def test_signing_out_one_row_ends_that_browser_and_its_token_only(app):
    user = make_account()
    phone = app.test_client()
    res = phone.post(
        "/api/auth/login",
        json={"username": user.username, "password": DEFAULT_PASSWORD},
        headers={"User-Agent": ANDROID_CHROME},
    )
    phone_token = {"Authorization": f"Bearer {res.json['token']}"}
    desk = sign_in(app, user, WINDOWS_EDGE)
    phone_row = db.session.scalar(select(PageSession).where(PageSession.user_agent == ANDROID_CHROME))
    out = desk.post(f"/profile/sessions/{phone_row.id}/sign-out")
    assert out.status_code == 302 and out.headers["Location"].endswith("/profile#sessions")
    page = desk.get("/profile").get_data(as_text=True)
    assert "That browser is signed out." in page
    assert [r for r in session_rows(page) if "Chrome on Android" in r] == []
    assert phone.get("/dashboard").status_code == 302
    assert app.test_client().get("/api/me", headers=phone_token).status_code == 401
    assert db.session.scalar(select(ApiToken.revoked_at)) is not None


def test_signing_out_this_browser_leads_to_the_sign_in_page(app):
    user = make_account()
    desk = sign_in(app, user, WINDOWS_EDGE)
    own = db.session.scalar(select(PageSession.id))
    out = desk.post(f"/profile/sessions/{own}/sign-out")
    assert out.status_code == 302 and "/login" in out.headers["Location"]
    assert "signed out of this browser" in desk.get("/login").get_data(as_text=True)
    assert desk.get("/profile").status_code == 302


def test_another_accounts_session_is_not_found_and_stays(app, api_headers):
    owner, other = make_account(), make_account()
    sign_in(app, owner, ANDROID_CHROME)
    theirs = db.session.scalar(select(PageSession.id))
    intruder = sign_in(app, other, WINDOWS_EDGE)
    assert intruder.post(f"/profile/sessions/{theirs}/sign-out").status_code == 404
    assert intruder.post("/profile/sessions/99999/sign-out").status_code == 404
    res = app.test_client().post(f"/api/me/sessions/{theirs}/sign-out", headers=api_headers(other))
    assert res.status_code == 404 and res.json["message"]
    assert db.session.get(PageSession, theirs) is not None


def test_the_api_names_each_browser_and_signs_one_out(app, api_headers):
    user = make_account()
    sign_in(app, user, IPHONE_SAFARI)
    headers = api_headers(user)
    listed = app.test_client().get("/api/me/sessions", headers=headers).json["data"]
    browser = next(s for s in listed if s["kind"] == "browser")
    assert browser["name"] == "Safari on iPhone"
    res = app.test_client().post(f"/api/me/sessions/{browser['id']}/sign-out", headers=headers)
    assert res.status_code == 200 and res.json["success"]
    assert db.session.get(PageSession, browser["id"]) is None


def test_a_session_sign_out_needs_the_csrf_token(app):
    user = make_account()
    desk = sign_in(app, user, WINDOWS_EDGE)
    own = db.session.scalar(select(PageSession.id))
    app.config["WTF_CSRF_ENABLED"] = True
    assert desk.post(f"/profile/sessions/{own}/sign-out").status_code == 400
    assert db.session.get(PageSession, own) is not None
