"""Google sign-in against a local OAuth2 provider: redirect, code exchange and user info over HTTP."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import Account, AccountStatus, ApiToken
from tests.factories import make_account
from tests.factories_auth import signup_body
from tests.support.google import google_flow, google_user


@pytest.fixture
def app_overrides(provider, monkeypatch):
    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")  # the local provider speaks http
    provider.refuse = False
    return provider.config()


def test_active_account_is_signed_in_with_token_and_user_in_the_hash(client, provider):
    account = make_account(email="ana@example.test")
    res = google_flow(client, provider, google_user())
    location = urlsplit(res.headers["Location"])
    assert res.status_code == 302 and location.path == "/dashboard"
    fragment = parse_qs(location.fragment)
    user = json.loads(fragment["user"][0])
    assert user["Username"] == account.username
    token = fragment["token"][0]
    assert client.get("/api/modules/allowed", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert client.get("/dashboard").status_code == 200  # the page session started too
    assert db.session.get(Account, account.id).google_subject == "g-100"
    assert provider.requests[-3:] == ["authorize", "token", "userinfo"]


def test_pending_account_goes_to_pending_approval(client, provider):
    account = make_account(email="pend@example.test", status=AccountStatus.EMAIL_PENDING, password=None)
    res = google_flow(client, provider, google_user("pend@example.test", "g-200"))
    location = urlsplit(res.headers["Location"])
    assert location.path == "/pending-approval"
    query = parse_qs(location.query)
    assert query["username"] == [account.username] and query["sso"] == ["google"]
    assert db.session.get(Account, account.id).status == AccountStatus.PENDING  # Google vouched the e-mail
    assert db.session.scalar(select(ApiToken)) is None


def test_unknown_email_goes_to_signup_in_google_mode_and_skips_verification(client, provider):
    res = google_flow(client, provider, google_user("new@example.test", "g-300"))
    location = urlsplit(res.headers["Location"])
    query = parse_qs(location.query)
    assert (
        location.path == "/signup" and query["sso"] == ["google"] and query["email"] == ["new@example.test"]
    )
    assert query["firstName"] == ["Ana"] and query["message"]
    html = client.get(res.headers["Location"]).get_data(as_text=True)
    assert "readonly" in html
    done = client.post("/api/auth/signup", json=signup_body("new@example.test", isSSO=True))
    assert done.status_code == 201 and done.json["status"] == "pending"
    account = db.session.scalar(select(Account).where(Account.email == "new@example.test"))
    assert account.google_subject == "g-300" and account.status == AccountStatus.PENDING


@pytest.mark.parametrize("fields", [{"status": AccountStatus.REJECTED}, {"is_enabled": False}])
def test_rejected_or_disabled_account_fails(client, provider, fields):
    make_account(email="no@example.test", **fields)
    res = google_flow(client, provider, google_user("no@example.test", "g-400"))
    assert res.headers["Location"] == "/login?auth=fail"
    assert db.session.scalar(select(ApiToken)) is None


def test_provider_refusal_fails(client, provider):
    provider.refuse = True
    res = google_flow(client, provider, google_user())
    assert res.headers["Location"] == "/login?auth=fail"
    page = client.get("/login?auth=fail").get_data(as_text=True)
    assert "Google sign-in failed" in page


def test_unverified_google_email_fails(client, provider):
    make_account(email="ana@example.test")
    res = google_flow(client, provider, google_user(email_verified=False))
    assert res.headers["Location"] == "/login?auth=fail"


def test_forged_callback_without_state_or_with_bad_code_fails(client, provider):
    client.get("/api/auth/google")  # sets the state
    res = client.get("/api/auth/google/authorized?code=forged&state=wrong")
    assert res.status_code == 302 and res.headers["Location"] == "/login?auth=fail"
    res = client.get("/api/auth/google/authorized?error=access_denied")
    assert res.headers["Location"] == "/login?auth=fail"


def test_google_not_configured_says_so(database_url):
    from sibol import create_app
    from tests.conftest import base_overrides

    app = create_app(base_overrides(database_url, GOOGLE_OAUTH_CLIENT_ID=None))
    client = app.test_client()
    res = client.get("/api/auth/google")
    assert res.headers["Location"] == "/login?auth=fail"
    with app.app_context():
        html = client.get("/login?auth=fail").get_data(as_text=True)
    assert "Google sign-in is not configured on this server." in html
