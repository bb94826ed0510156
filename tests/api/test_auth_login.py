"""Sign-in, sign-out and the allowed modules through /api/auth and /api/modules/allowed."""

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import Account, AccountStatus, ApiToken, RoleId
from sibol.models.auth import LoginFailures
from tests.factories import DEFAULT_PASSWORD, make_account


def test_login_returns_token_user_and_message(client):
    user = make_account(role=RoleId.OPERATOR)
    res = client.post("/api/auth/login", json={"username": user.username, "password": DEFAULT_PASSWORD})
    assert res.status_code == 200
    body = res.json
    assert body["token"] == body["accessToken"] and body["message"]
    assert body["user"]["Username"] == user.username and body["user"]["roleId"] == 3
    assert body["user"]["user_modules"] == [1, 2, 3, 4, 5] and body["user"]["role"] == "Operator"
    # The same call started the page session.
    assert client.get("/dashboard").status_code == 200


def test_login_by_email_is_case_insensitive(client):
    user = make_account(email="Mixed@Example.test")
    res = client.post(
        "/api/auth/login", json={"username": "mixed@example.TEST", "password": DEFAULT_PASSWORD}
    )
    assert res.status_code == 200 and res.json["user"]["Account_id"] == user.id


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({"status": AccountStatus.EMAIL_PENDING}, 403, "Please verify your email address before signing in."),
        ({"status": AccountStatus.PENDING}, 403, "Your account is awaiting admin approval."),
        ({"status": AccountStatus.REJECTED}, 403, "Your account registration was rejected."),
        ({"is_enabled": False}, 403, "Your account has been disabled. Contact your barangay administrator."),
    ],
)
def test_refused_sign_in_says_why(client, fields, status, message):
    user = make_account(**fields)
    res = client.post("/api/auth/login", json={"username": user.username, "password": DEFAULT_PASSWORD})
    assert res.status_code == status and res.json["message"] == message
    assert db.session.scalar(select(ApiToken)) is None


def test_self_registered_account_without_password_is_told_its_state(client):
    user = make_account(status=AccountStatus.PENDING, password=None)
    res = client.post("/api/auth/login", json={"username": user.username, "password": "Anything1!"})
    assert res.status_code == 403 and res.json["message"] == "Your account is awaiting admin approval."
    active = make_account(password=None)
    res = client.post("/api/auth/login", json={"username": active.username, "password": "Anything1!"})
    assert res.status_code == 401 and "no password yet" in res.json["message"]


def test_wrong_password_and_unknown_user_get_the_same_answer(client):
    user = make_account()
    wrong = client.post("/api/auth/login", json={"username": user.username, "password": "Wrong-pass1"})
    unknown = client.post("/api/auth/login", json={"username": "ghost", "password": "Wrong-pass1"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json["message"] == unknown.json["message"] == "Invalid username or password."


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"password": "x"}, "username", "Username is required."),
        ({"username": "  ", "password": "x"}, "username", "Username is required."),
        ({"username": "juan"}, "password", "Password is required."),
        ({"username": 12, "password": "x"}, "username", "Username must be text."),
        ({"username": "u" * 10_000, "password": "x"}, "username", "Username must be at most 254 characters."),
        ({"username": "juan", "password": "p" * 300}, "password", "Password must be at most 256 characters."),
    ],
)
def test_login_bad_input_names_the_field(client, body, field, message):
    res = client.post("/api/auth/login", json=body)
    assert res.status_code == 400 and res.json["field"] == field and res.json["message"] == message


def test_login_malformed_json_and_wrong_content_type(client):
    assert client.post("/api/auth/login", data="{oops", content_type="application/json").status_code == 400
    res = client.post("/api/auth/login", data="username=a", content_type="application/x-www-form-urlencoded")
    assert res.status_code == 415 and res.is_json


def test_login_is_rate_limited_with_retry_after(client):
    for _ in range(10):
        client.post("/api/auth/login", json={"username": "ghost", "password": "x"})
    res = client.post("/api/auth/login", json={"username": "ghost", "password": "x"})
    assert res.status_code == 429 and res.is_json and res.json["message"]
    assert int(res.headers["Retry-After"]) > 0


def test_logout_revokes_the_token_and_ends_the_session(client):
    user = make_account()
    token = client.post(
        "/api/auth/login", json={"username": user.username, "password": DEFAULT_PASSWORD}
    ).json["token"]
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/modules/allowed", headers=headers).status_code == 200
    assert client.post("/api/auth/logout", headers=headers).status_code == 200
    assert client.get("/api/modules/allowed", headers=headers).status_code == 401
    assert db.session.scalar(select(ApiToken)).revoked_at is not None
    assert client.get("/dashboard").status_code == 302


def test_logout_without_credentials_still_answers(client):
    res = client.post("/api/auth/logout")
    assert res.status_code == 200 and res.json["success"] is True


def test_allowed_modules_lists_the_callers_modules(client, api_headers):
    user = make_account(role=RoleId.HOUSEHOLD)
    res = client.get("/api/modules/allowed", headers=api_headers(user))
    assert res.status_code == 200
    modules = res.json  # a plain list (spec section 3;)
    assert [m["Module_id"] for m in modules] == [1, 4, 5]
    assert {k: modules[1][k] for k in ("Module_id", "key", "name", "path")} == {
        "Module_id": 4,
        "key": "household",
        "name": "Household",
        "path": "/household",
    }


def test_allowed_modules_needs_an_active_account(client, api_headers):
    user = make_account()
    headers = api_headers(user)
    user.is_enabled = False
    db.session.commit()
    assert client.get("/api/modules/allowed", headers=headers).status_code == 401


def test_page_login_form_posts_without_javascript(client):
    user = make_account()
    res = client.post("/login", data={"username": user.username, "password": DEFAULT_PASSWORD})
    assert res.status_code == 302 and res.headers["Location"].endswith("/dashboard")
    assert db.session.scalar(select(ApiToken)) is None  # the page session needs no bearer token


def test_page_login_shows_required_and_refusal_messages(client):
    res = client.post("/login", data={"username": " ", "password": ""})
    html = res.get_data(as_text=True)
    assert res.status_code == 400 and html.count("This field is required") == 2
    pending = make_account(status=AccountStatus.PENDING)
    html = client.post("/login", data={"username": pending.username, "password": DEFAULT_PASSWORD}).get_data(
        as_text=True
    )
    assert "Your account is awaiting admin approval." in html


def test_page_login_refuses_an_overlong_username_instead_of_cutting_it(client):
    user = make_account()
    too_long = user.email + "x" * 300
    res = client.post("/login", data={"username": too_long, "password": "Wrong-pass1"})
    html = res.get_data(as_text=True)
    assert res.status_code == 400 and "Username must be at most 254 characters." in html
    assert 'id="username"' in html and 'aria-invalid="true"' in html
    res = client.post("/login", data={"username": user.username, "password": "p" * 300})
    assert res.status_code == 400 and "Password must be at most 256 characters." in res.get_data(as_text=True)
    assert db.session.scalar(select(func.count(LoginFailures.key))) == 0  # nothing was counted


def test_page_login_ignores_offsite_next(client):
    user = make_account()
    res = client.post(
        "/login?next=https://evil.example/", data={"username": user.username, "password": DEFAULT_PASSWORD}
    )
    assert res.headers["Location"].endswith("/dashboard")


def test_login_page_loads_no_react_and_stays_small(client):
    res = client.get("/login", headers={"Accept-Encoding": "br"})
    html = client.get("/login").get_data(as_text=True)
    assert "react" not in html.lower().split("</body>")[0].replace("forgot-password", "")
    assert "islands/code-input" not in html and "code-input" not in html
    assert len(res.data) < 30_000
    assert 'data-island="forgot-password"' in html and "forgot-password-" in html  # the on-demand URL


def test_pages_of_account_entry_redirect_as_the_spec_says(client):
    assert client.get("/email-verification").headers["Location"].endswith("/login")
    assert client.get("/pending-approval").headers["Location"].endswith("/login")
    assert "/login" in client.get("/signup?auth=fail").headers["Location"]
    assert "/login" in client.get("/pending-approval?email=a@b.ph&auth=fail").headers["Location"]
    html = client.get("/pending-approval?email=a@b.ph&username=a").get_data(as_text=True)
    assert "1-2 business days" in html and "Check status" in html
    html = client.get("/email-verification?email=a@b.ph").get_data(as_text=True)
    assert 'data-state="waiting"' in html and "a@b.ph" in html


def test_signup_page_google_mode_has_read_only_email_and_the_message(client):
    html = client.get(
        "/signup?email=g@example.test&sso=google&firstName=Ana&lastName=Cruz&message=Finish+here"
    ).get_data(as_text=True)
    assert 'value="g@example.test" required aria-describedby="email-error" readonly' in html
    assert "Finish here" in html and 'value="Ana"' in html
    assert '<input type="hidden" id="areaId" name="areaId"' in html and "Household" in html  # one barangay


def test_signup_page_form_post_without_javascript(client):
    from tests.factories_auth import signup_body

    body = signup_body("nojs@example.test")
    form = {
        "role": "2",
        "firstName": body["firstName"],
        "lastName": body["lastName"],
        "email": body["email"],
        "areaId": str(body["areaId"]),
    }
    res = client.post("/signup", data=form)
    assert (
        res.status_code == 302
        and "/email-verification?email=nojs@example.test&username=nojs" in res.headers["Location"]
    )
    again = client.post("/signup", data=form)
    assert again.status_code == 400 and "Resend verification email" in again.get_data(as_text=True)
    bad = client.post("/signup", data={**form, "email": "x", "firstName": "J0hn"})
    assert "First name can only contain" in bad.get_data(as_text=True)
    assert db.session.scalar(select(Account).where(Account.email == "nojs@example.test")).role_id == 2
