"""Forgot password (code by e-mail), reset, and the set-password link sent on approval."""

import pytest
from sqlalchemy import select

from sibol.auth import recovery
from sibol.extensions import db, mail
from sibol.identity import onetime
from sibol.identity.passwords import PASSWORD_RULE_MESSAGE, verify_password
from sibol.models import AccountStatus, ApiToken
from sibol.models.auth import AccountToken, TokenPurpose
from tests.factories import DEFAULT_PASSWORD, make_account
from tests.factories_auth import code_in, token_in

NEW = "N3w-Passw0rd!"


def request_code(client, email) -> str:
    with mail.record_messages() as outbox:
        res = client.post("/api/auth/forgot-password", json={"email": email})
    assert res.status_code == 200 and res.json["message"] == "Reset code sent. Check your email."
    assert "debugCode" not in res.json
    return code_in(outbox[0].body)


def test_full_reset_revokes_tokens_and_old_sessions(client, api_headers):
    user = make_account()
    headers = api_headers(user)
    code = request_code(client, user.email)
    stored = db.session.scalar(select(AccountToken))
    assert stored.token_hash != code and (
        stored.expires_at - stored.created_at
    ).total_seconds() == pytest.approx(900, abs=5)
    res = client.post("/api/auth/verify-reset-code", json={"email": user.email, "code": code})
    assert res.status_code == 200 and res.json["message"] == "Code verified. Enter your new password."
    res = client.post(
        "/api/auth/reset-password", json={"email": user.email, "code": code, "newPassword": NEW}
    )
    assert res.status_code == 200
    assert res.json["message"] == "Password reset successfully. You can now sign in with your new password."
    db.session.refresh(user)
    assert verify_password(user.password_hash, NEW) and user.password_hash.startswith("$argon2id$")
    assert client.get("/api/modules/allowed", headers=headers).status_code == 401
    # Single use.
    again = client.post(
        "/api/auth/reset-password", json={"email": user.email, "code": code, "newPassword": NEW}
    )
    assert again.status_code == 400
    assert (
        client.post("/api/auth/login", json={"username": user.username, "password": NEW}).status_code == 200
    )


def test_forgot_password_answers_the_same_for_unknown_and_inactive_emails(client):
    pending = make_account(status=AccountStatus.PENDING)
    with mail.record_messages() as outbox:
        a = client.post("/api/auth/forgot-password", json={"email": "ghost@example.test"})
        b = client.post("/api/auth/forgot-password", json={"email": pending.email})
    assert a.status_code == b.status_code == 200 and a.json == b.json
    assert outbox == [] and db.session.scalar(select(AccountToken)) is None


def test_debug_code_only_with_sibol_debug_codes(client, app):
    user = make_account()
    app.config["SIBOL_DEBUG_CODES"] = True
    res = client.post("/api/auth/forgot-password", json={"email": user.email})
    assert res.json["debugCode"].isdigit() and len(res.json["debugCode"]) == 6
    ghost = client.post("/api/auth/forgot-password", json={"email": "ghost@example.test"})
    assert "debugCode" not in ghost.json


@pytest.mark.parametrize(
    ("path", "body", "field", "message"),
    [
        ("/api/auth/forgot-password", {"email": "no spaces@x.ph"}, "email", "Please enter a valid email."),
        ("/api/auth/forgot-password", {"email": "plain"}, "email", "Please enter a valid email."),
        ("/api/auth/forgot-password", {}, "email", "Email is required."),
        ("/api/auth/forgot-password", {"email": 5}, "email", "Email must be text."),
        (
            "/api/auth/verify-reset-code",
            {"email": "a@b.ph", "code": "12345"},
            "code",
            "Code must be a 6-digit number.",
        ),
        (
            "/api/auth/verify-reset-code",
            {"email": "a@b.ph", "code": "12a456"},
            "code",
            "Code must be a 6-digit number.",
        ),
        ("/api/auth/verify-reset-code", {"email": "a@b.ph", "code": 123456}, "code", "Code must be text."),
        (
            "/api/auth/reset-password",
            {"email": "a@b.ph", "code": "123456", "newPassword": "short"},
            "newPassword",
            PASSWORD_RULE_MESSAGE,
        ),
        (
            "/api/auth/reset-password",
            {"email": "a@b.ph", "code": "123456", "newPassword": "alllowercase1!"},
            "newPassword",
            PASSWORD_RULE_MESSAGE,
        ),
        (
            "/api/auth/reset-password",
            {"email": "a@b.ph", "code": "123456"},
            "newPassword",
            "New password is required.",
        ),
        ("/api/auth/set-password", {"token": "x"}, "newPassword", "New password is required."),
        ("/api/auth/set-password", {"newPassword": NEW}, "token", "Token is required."),
        (
            "/api/auth/set-password",
            {"token": "x" * 10_000, "newPassword": NEW},
            "token",
            "Token must be at most 200 characters.",
        ),
    ],
)
def test_password_endpoints_name_the_problem(client, path, body, field, message):
    res = client.post(path, json=body)
    assert res.status_code == 400 and res.json["field"] == field and res.json["message"] == message


@pytest.mark.parametrize(
    "path",
    [
        "/api/auth/forgot-password",
        "/api/auth/verify-reset-code",
        "/api/auth/reset-password",
        "/api/auth/set-password",
    ],
)
def test_password_endpoints_refuse_malformed_json(client, path):
    res = client.post(path, data="{", content_type="application/json")
    assert res.status_code == 400 and res.json["field"] == "body"
    assert client.post(path, json=[1]).status_code == 400


def test_wrong_code_five_times_kills_the_code(client):
    user = make_account()
    code = request_code(client, user.email)
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(5):
        res = client.post("/api/auth/verify-reset-code", json={"email": user.email, "code": wrong})
        assert res.status_code == 400 and res.json["field"] == "code"
    res = client.post("/api/auth/verify-reset-code", json={"email": user.email, "code": code})
    assert res.status_code == 400
    db.session.refresh(user)
    assert verify_password(user.password_hash, DEFAULT_PASSWORD)


def test_expired_code_is_refused(client):
    user = make_account()
    code = request_code(client, user.email)
    token = db.session.scalar(select(AccountToken))
    token.expires_at = token.created_at
    db.session.commit()
    res = client.post("/api/auth/verify-reset-code", json={"email": user.email, "code": code})
    assert res.status_code == 400


def test_a_new_code_replaces_the_old_one(client):
    user = make_account()
    first = request_code(client, user.email)
    second = request_code(client, user.email)
    if first != second:
        assert (
            client.post("/api/auth/verify-reset-code", json={"email": user.email, "code": first}).status_code
            == 400
        )
    assert (
        client.post("/api/auth/verify-reset-code", json={"email": user.email, "code": second}).status_code
        == 200
    )


def test_weak_new_password_writes_nothing_and_keeps_the_code(client):
    user = make_account()
    code = request_code(client, user.email)
    res = client.post(
        "/api/auth/reset-password", json={"email": user.email, "code": code, "newPassword": "weak"}
    )
    assert res.status_code == 400
    db.session.refresh(user)
    assert verify_password(user.password_hash, DEFAULT_PASSWORD)
    assert db.session.scalar(select(AccountToken)).failed_attempts == 0


def test_forgot_password_is_rate_limited(client):
    for _ in range(5):
        client.post("/api/auth/forgot-password", json={"email": "ghost@example.test"})
    res = client.post("/api/auth/forgot-password", json={"email": "ghost@example.test"})
    assert res.status_code == 429 and res.headers["Retry-After"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/auth/verify-reset-code", {"email": "a@b.ph", "code": "123456"}),
        ("/api/auth/reset-password", {"email": "a@b.ph", "code": "123456", "newPassword": NEW}),
    ],
)
def test_code_endpoints_are_rate_limited(client, path, body):
    for _ in range(10):
        client.post(path, json=body)
    assert client.post(path, json=body).status_code == 429


def approved_without_password(app):
    account = make_account(status=AccountStatus.PENDING, password=None)
    url = recovery.activate_for_approval(account)
    return account, url.split("token=", 1)[1]


def test_set_password_link_sets_a_password_once(client, app):
    account, raw = approved_without_password(app)
    token = db.session.scalar(select(AccountToken).where(AccountToken.purpose == TokenPurpose.SET_PASSWORD))
    assert (token.expires_at - token.created_at).total_seconds() == pytest.approx(72 * 3600, abs=5)
    page = client.get(f"/set-password?token={raw}")
    assert page.status_code == 200 and account.username in page.get_data(as_text=True)
    assert (
        client.post("/api/auth/set-password", json={"token": raw, "newPassword": "weak"}).status_code == 400
    )
    res = client.post("/api/auth/set-password", json={"token": raw, "newPassword": NEW})
    assert res.status_code == 200 and res.json["username"] == account.username
    again = client.post("/api/auth/set-password", json={"token": raw, "newPassword": NEW})
    assert again.status_code == 400 and again.json["field"] == "token"
    assert client.get(f"/set-password?token={raw}").status_code == 400
    login = client.post("/api/auth/login", json={"username": account.username, "password": NEW})
    assert login.status_code == 200


def test_set_password_page_form_works_without_javascript(client, app):
    account, raw = approved_without_password(app)
    mismatch = client.post("/set-password", data={"token": raw, "newPassword": NEW, "confirmPassword": "x"})
    assert mismatch.status_code == 400 and "Passwords do not match" in mismatch.get_data(as_text=True)
    weak = client.post("/set-password", data={"token": raw, "newPassword": "weak", "confirmPassword": "weak"})
    assert PASSWORD_RULE_MESSAGE in weak.get_data(as_text=True)
    res = client.post("/set-password", data={"token": raw, "newPassword": NEW, "confirmPassword": NEW})
    assert res.status_code == 302 and "/login" in res.headers["Location"]
    assert client.post("/login", data={"username": account.username, "password": NEW}).status_code == 302


def test_expired_set_password_link_is_refused(client, app):
    _account, raw = approved_without_password(app)
    token = db.session.scalar(select(AccountToken))
    token.expires_at = token.created_at
    db.session.commit()
    res = client.post("/api/auth/set-password", json={"token": raw, "newPassword": NEW})
    assert res.status_code == 400
    assert "expired" in client.get(f"/set-password?token={raw}").get_data(as_text=True)


def test_self_registered_account_can_use_forgot_password_once_approved(client, app):
    account, _raw = approved_without_password(app)
    code = request_code(client, account.email)
    res = client.post(
        "/api/auth/reset-password", json={"email": account.email, "code": code, "newPassword": NEW}
    )
    assert res.status_code == 200
    assert (
        client.post("/api/auth/login", json={"username": account.username, "password": NEW}).status_code
        == 200
    )


def test_verification_link_is_not_a_set_password_link(client):
    account = make_account(status=AccountStatus.EMAIL_PENDING, password=None)
    raw = onetime.issue_link_token(account, TokenPurpose.VERIFY_EMAIL)
    db.session.commit()
    assert client.post("/api/auth/set-password", json={"token": raw, "newPassword": NEW}).status_code == 400
    assert db.session.scalar(select(ApiToken)) is None


def test_email_link_pages_use_the_base_url(client):
    with mail.record_messages() as outbox:
        from tests.factories_auth import signup_body

        client.post("/api/auth/signup", json=signup_body())
    assert token_in(outbox[0].body, "/email-verification")
    assert "http://localhost/email-verification?token=" in outbox[0].html
