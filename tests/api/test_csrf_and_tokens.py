"""CSRF on cookie-authenticated writes; bearer tokens are the whole identity of a request."""

import pytest

from sibol.extensions import db
from sibol.models import ApiToken
from tests.factories import DEFAULT_PASSWORD, make_account


@pytest.fixture
def app_overrides():
    return {"WTF_CSRF_ENABLED": True}


def csrf_token_from(client) -> str:
    html = client.get("/login").get_data(as_text=True)
    return html.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]


def test_form_post_without_csrf_token_is_refused(client):
    user = make_account()
    res = client.post("/login", data={"username": user.username, "password": DEFAULT_PASSWORD})
    assert res.status_code == 400
    assert "security token" in res.get_data(as_text=True)


def test_cookie_api_write_needs_csrf_header(client):
    user = make_account()
    token = csrf_token_from(client)
    res = client.post(
        "/login", data={"username": user.username, "password": DEFAULT_PASSWORD, "csrf_token": token}
    )
    assert res.status_code == 302
    refused = client.post("/api/auth/logout")
    assert refused.status_code == 400 and refused.is_json
    ok = client.post("/api/auth/logout", headers={"X-CSRFToken": token})
    assert ok.status_code == 200


def test_bearer_writes_need_no_csrf_and_ignore_cookies(client):
    user = make_account()
    res = client.post(
        "/api/auth/login",
        json={"username": user.username, "password": DEFAULT_PASSWORD},
        headers={"Authorization": "Bearer x"},
    )  # a bad bearer: CSRF skipped, token ignored
    assert res.status_code == 200
    token = res.json["token"]
    assert res.json["user"]["Username"] == user.username
    stored = db.session.query(ApiToken).one()
    assert stored.token_hash != token and len(stored.token_hash) == 64
    assert client.get("/api/modules/allowed", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    # The login also started a page session, but a bogus bearer wins over the cookie.
    assert client.get("/api/modules/allowed", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert client.post("/api/auth/logout", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert client.get("/api/modules/allowed", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_api_client_without_cookies_signs_in_without_csrf(app):
    user = make_account()
    fresh = app.test_client(use_cookies=False)
    res = fresh.post("/api/auth/login", json={"username": user.username, "password": DEFAULT_PASSWORD})
    assert res.status_code == 200 and res.json["token"]


def test_identity_does_not_leak_between_requests_in_one_app_context(client, api_headers):
    user = make_account()
    assert client.get("/api/modules/allowed", headers=api_headers(user)).status_code == 200
    assert client.get("/api/modules/allowed").status_code == 401
