"""/profile and /api/me (part 5): details, password change, sign-ins, sessions."""

from __future__ import annotations

import pytest

from sibol.extensions import db, limiter
from sibol.models import Account, RoleId
from tests.factories import DEFAULT_PASSWORD, make_account, token_for

NEW_PASSWORD = "N3w-secret!"  # noqa: S105 - a test password


pytestmark = pytest.mark.usefixtures("fresh_identity")


def page_login(app, account, password: str = DEFAULT_PASSWORD):
    client = app.test_client()
    res = client.post("/login", data={"username": account.username, "password": password})
    assert res.status_code == 302
    return client


def api_login(app, account, password: str = DEFAULT_PASSWORD) -> dict:
    res = app.test_client().post("/api/auth/login", json={"username": account.username, "password": password})
    assert res.status_code == 200, res.json
    return {"Authorization": f"Bearer {res.json['token']}"}


def test_details_read_and_change_with_field_errors(app, client, api_headers):
    account = make_account(role=RoleId.HOUSEHOLD, first_name="Ana", last_name="Cruz")
    h = api_headers(account)
    me = client.get("/api/me", headers=h).json["user"]
    assert me["username"] == account.username and me["contactNumber"] is None
    res = client.put("/api/me", json={"firstName": "Ana Marie", "contactNumber": "0917 123 4567"}, headers=h)
    assert res.status_code == 200 and res.json["user"]["FirstName"] == "Ana Marie"
    assert res.json["user"]["contactNumber"] == "0917 123 4567"
    for body, field in (
        ({"firstName": ""}, "firstName"),
        ({"lastName": "R2-D2"}, "lastName"),
        ({"contactNumber": "call me"}, "contactNumber"),
        ({"contactNumber": 5}, "contactNumber"),
        ({"firstName": "Changed", "email": "not-an-address"}, "email"),
    ):
        res = client.put("/api/me", json=body, headers=h)
        assert res.status_code == 400 and res.json["field"] == field, body
    db.session.expire_all()
    assert db.session.get(Account, account.id).first_name == "Ana Marie"  # nothing half-written
    page = page_login(app, account)
    bad = page.post("/profile", data={"firstName": "Ana", "lastName": "", "contactNumber": "x"})
    html = bad.get_data(as_text=True)
    assert (
        bad.status_code == 400
        and "Last name is required." in html
        and "Contact number must be a phone" in html
    )
    ok = page.post(
        "/profile", data={"firstName": "Ana", "lastName": "Reyes", "contactNumber": ""}, follow_redirects=True
    )
    assert "Profile saved." in ok.get_data(as_text=True)
    db.session.expire_all()
    saved = db.session.get(Account, account.id)
    assert (saved.last_name, saved.contact_number) == ("Reyes", None)


def test_password_change_ends_every_other_session_at_once(app):
    account = make_account(role=RoleId.STAFF)
    here = page_login(app, account)
    elsewhere = page_login(app, account)
    other_token = {"Authorization": f"Bearer {token_for(account)}"}
    assert elsewhere.get("/profile").status_code == 200
    wrong = here.post("/profile/password", data={"currentPassword": "nope", "newPassword": NEW_PASSWORD})
    assert wrong.status_code == 400 and "Your current password is not right." in wrong.get_data(as_text=True)
    weak = here.post("/profile/password", data={"currentPassword": DEFAULT_PASSWORD, "newPassword": "short"})
    assert weak.status_code == 400 and "at least 8 chars" in weak.get_data(as_text=True)
    assert elsewhere.get("/profile").status_code == 200  # refused changes end nothing
    res = here.post(
        "/profile/password", data={"currentPassword": DEFAULT_PASSWORD, "newPassword": NEW_PASSWORD}
    )
    assert res.status_code == 302
    assert here.get("/profile").status_code == 200  # this browser stays signed in
    gone = elsewhere.get("/profile")
    assert gone.status_code == 302 and "/login" in gone.headers["Location"]
    assert app.test_client().get("/api/me", headers=other_token).status_code == 401
    assert page_login(app, account, NEW_PASSWORD)


def test_password_change_by_api_keeps_only_the_calling_token(app):
    account = make_account(role=RoleId.OPERATOR)
    mine, other = api_login(app, account), api_login(app, account)
    browser = page_login(app, account)
    client = app.test_client()
    res = client.post(
        "/api/me/password", json={"currentPassword": "x", "newPassword": NEW_PASSWORD}, headers=mine
    )
    assert res.status_code == 400 and res.json["field"] == "currentPassword"
    res = client.post("/api/me/password", json={"newPassword": NEW_PASSWORD}, headers=mine)
    assert res.status_code == 400 and res.json["field"] == "currentPassword"
    res = client.post(
        "/api/me/password",
        json={"currentPassword": DEFAULT_PASSWORD, "newPassword": NEW_PASSWORD},
        headers=mine,
    )
    assert res.status_code == 200
    assert client.get("/api/me", headers=mine).status_code == 200
    assert client.get("/api/me", headers=other).status_code == 401
    assert browser.get("/profile").status_code == 302


def test_sign_ins_record_time_address_and_method_and_show_the_last_ten(app):
    account = make_account(role=RoleId.HOUSEHOLD)
    for _ in range(6):
        page_login(app, account)
    limiter.reset()  # 10 sign-ins a minute per address; this test signs in 13 times
    for _ in range(6):
        h = api_login(app, account)
    rows = app.test_client().get("/api/me/sign-ins", headers=h).json["data"]
    assert len(rows) == 10
    assert {(r["method"], r["address"]) for r in rows} == {("password", "127.0.0.1")}
    html = page_login(app, account).get("/profile").get_data(as_text=True)
    sign_ins = html[html.index('id="sign-ins"') :].split("</table>")[0]
    assert sign_ins.count('<td data-label="Address">127.0.0.1</td>') == 10 and "Password" in sign_ins


def test_sessions_list_and_sign_out_everywhere(app):
    account = make_account(role=RoleId.STAFF)
    h = api_login(app, account)
    api_login(app, account)
    browser = page_login(app, account)
    sessions = app.test_client().get("/api/me/sessions", headers=h).json["data"]
    # Each API sign-in also starts a page session: 3 browsers, 2 tokens.
    assert sorted(s["kind"] for s in sessions) == ["browser"] * 3 + ["token"] * 2
    assert sum(s["current"] for s in sessions) == 1
    assert "This browser" in browser.get("/profile").get_data(as_text=True)
    res = browser.post("/profile/sign-out-everywhere")
    assert res.status_code == 200 and "Signed out everywhere" in res.get_data(as_text=True)
    assert app.test_client().get("/api/me", headers=h).status_code == 401
    assert browser.get("/profile").status_code == 302


class TestGoogleSignIn:
    @pytest.fixture
    def app_overrides(self, provider, monkeypatch):
        monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")
        provider.refuse = False
        return provider.config()

    def test_google_sign_in_is_recorded_as_google(self, app, client, provider):
        from urllib.parse import urlsplit

        import requests

        account = make_account(email="gina@example.test")
        provider.user = {"sub": "g-9", "email": "gina@example.test", "email_verified": True}
        start = client.get("/api/auth/google")
        back = requests.get(start.headers["Location"], allow_redirects=False, timeout=10)
        callback = urlsplit(back.headers["Location"])
        assert client.get(f"{callback.path}?{callback.query}").status_code == 302
        html = client.get("/profile").get_data(as_text=True)
        assert '<td data-label="Method">Google</td>' in html
        h = api_login(app, account)
        methods = [r["method"] for r in app.test_client().get("/api/me/sign-ins", headers=h).json["data"]]
        assert methods == ["password", "google"]
