"""Sign-up, e-mail verification, resend and check-status through /api/auth."""

import pytest
from sqlalchemy import func, select

from sibol.extensions import db, mail
from sibol.models import Account, AccountStatus, ApiToken
from sibol.models.auth import AccountToken
from tests.factories import make_account
from tests.factories_auth import signup_body, token_in


def count(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


def test_barangays_lists_id_and_name(client):
    res = client.get("/api/auth/barangays")
    assert res.status_code == 200 and res.json["success"] is True
    names = [b["name"] for b in res.json["barangays"]]
    assert "Barangay Fortune" in names and all(isinstance(b["id"], int) for b in res.json["barangays"])


def test_signup_creates_email_pending_account_without_password_and_mails_a_link(client):
    with mail.record_messages() as outbox:
        res = client.post("/api/auth/signup", json=signup_body())
    assert res.status_code == 201, res.json
    assert res.json["success"] is True and res.json["username"] == "juan.dela-cruz"
    assert res.json["email"] == "juan.dela-cruz@example.test"
    account = db.session.scalar(select(Account).where(Account.username == "juan.dela-cruz"))
    assert account.status == AccountStatus.EMAIL_PENDING and account.password_hash is None
    assert account.role_id == 4 and sorted(account.module_ids) == [1, 4, 5]
    assert len(outbox) == 1 and outbox[0].recipients == ["juan.dela-cruz@example.test"]
    raw = token_in(outbox[0].body, "/email-verification")
    stored = db.session.scalar(select(AccountToken))
    assert stored.token_hash != raw and len(stored.token_hash) == 64
    assert (stored.expires_at - stored.created_at).total_seconds() == pytest.approx(24 * 3600, abs=5)


def test_signup_makes_the_username_unique(client):
    make_account(username="maria")
    res = client.post("/api/auth/signup", json=signup_body("maria@example.test"))
    assert res.json["username"] == "maria2"


def test_username_falls_back_to_names_when_email_local_part_is_empty():
    from sibol.identity.usernames import from_email

    assert from_email("", "Ana Marie", "O'Neil") == "anamarieoneil"
    assert from_email("a+b!c@x.ph", "X", "Y") == "abc"
    assert len(from_email("x" * 80 + "@x.ph")) == 30


@pytest.mark.parametrize(
    ("override", "field", "message"),
    [
        ({"role": None, "roleId": None, "Roles": None}, "role", "Role is required"),
        ({"role": 9, "roleId": None, "Roles": None}, "role", "Choose a role"),
        ({"firstName": "", "FirstName": ""}, "firstName", "First name is required"),
        (
            {"firstName": "Juan2", "FirstName": None},
            "firstName",
            "First name can only contain letters, spaces, hyphens, apostrophes and periods",
        ),
        (
            {"lastName": "<b>", "LastName": None},
            "lastName",
            "Last name can only contain letters, spaces, hyphens, apostrophes and periods",
        ),
        ({"email": "", "Email": ""}, "email", "Email is required"),
        ({"email": "not-an-email", "Email": None}, "email", "Enter a valid email"),
        ({"areaId": None, "Area_id": None}, "areaId", "Barangay is required"),
        ({"areaId": "abc", "Area_id": None}, "areaId", "Barangay must be a valid number"),
        ({"areaId": -3, "Area_id": None}, "areaId", "Barangay must be a valid number"),
        ({"areaId": [1], "Area_id": None}, "areaId", "Barangay must be a valid number"),
        ({"areaId": 99999, "Area_id": None}, "areaId", "Choose a barangay"),
        ({"firstName": 5, "FirstName": None}, "firstName", "First name must be text"),
        (
            {"firstName": "J" * 10_000, "FirstName": None},
            "firstName",
            "First name must be at most 100 characters",
        ),
        ({"username": "u" * 51, "Username": None}, "username", "Username must be at most 50 characters"),
        ({"username": None, "Username": "u" * 51}, "username", "Username must be at most 50 characters"),
        ({"username": 7, "Username": None}, "username", "Username must be text"),
    ],
)
def test_signup_refusals_name_the_field_and_write_nothing(client, override, field, message):
    with mail.record_messages() as outbox:
        res = client.post("/api/auth/signup", json=signup_body(**override))
    assert res.status_code == 400, res.json
    assert res.json["field"] == field and res.json["message"].startswith(message)
    assert count(Account) == 0 and count(AccountToken) == 0 and outbox == []


def test_a_username_of_fifty_characters_is_taken_and_the_username_still_derived(client):
    res = client.post("/api/auth/signup", json=signup_body(username="u" * 50, Username="u" * 50))
    assert res.status_code == 201, res.json
    assert res.json["username"] != "u" * 50  # derived from the e-mail, as every sign-up's


@pytest.mark.parametrize("data", ["{not json", "[1, 2]", '"text"'])
def test_signup_malformed_json_is_400(client, data):
    res = client.post("/api/auth/signup", data=data, content_type="application/json")
    assert res.status_code == 400 and res.json["field"] == "body"


def test_signup_with_a_pending_email_offers_resend(client):
    client.post("/api/auth/signup", json=signup_body())
    res = client.post("/api/auth/signup", json=signup_body())
    assert res.status_code == 409 and res.json["pendingEmail"] == "juan.dela-cruz@example.test"
    assert count(Account) == 1


def test_signup_with_an_active_email_is_a_plain_conflict(client):
    make_account(email="taken@example.test")
    res = client.post("/api/auth/signup", json=signup_body("TAKEN@example.test"))
    assert res.status_code == 409 and "pendingEmail" not in res.json


def test_sso_signup_needs_the_google_identity_of_this_session(client):
    res = client.post("/api/auth/signup", json=signup_body(isSSO=True))
    assert res.status_code == 403 and count(Account) == 0
    with client.session_transaction() as sess:
        sess["sibol_google"] = {"email": "other@example.test", "sub": "g-1"}
    assert client.post("/api/auth/signup", json=signup_body(isSSO=True)).status_code == 403
    with client.session_transaction() as sess:
        sess["sibol_google"] = {"email": "juan.dela-cruz@example.test", "sub": "g-1"}
    with mail.record_messages() as outbox:
        res = client.post("/api/auth/signup", json=signup_body(isSSO=True))
    assert res.status_code == 201 and res.json["status"] == "pending"
    account = db.session.scalar(select(Account))
    assert account.is_sso and account.google_subject == "g-1" and account.password_hash is None
    assert outbox == []  # Google verified the address: no verification e-mail


def test_verify_email_moves_to_pending_once(client):
    with mail.record_messages() as outbox:
        client.post("/api/auth/signup", json=signup_body())
    raw = token_in(outbox[0].body, "/email-verification")
    res = client.get(f"/api/auth/verify-email/{raw}")
    assert res.status_code == 200 and res.json["success"] is True
    assert res.json["email"] == "juan.dela-cruz@example.test" and res.json["username"] == "juan.dela-cruz"
    assert db.session.scalar(select(Account)).status == AccountStatus.PENDING
    again = client.get(f"/api/auth/verify-email/{raw}")
    assert again.status_code == 400 and again.json["success"] is False
    assert again.json["error"] == "This verification link is invalid or has expired."


def test_verify_email_rejects_unknown_overlong_and_expired_tokens(client):
    assert client.get("/api/auth/verify-email/nope").status_code == 400
    assert client.get("/api/auth/verify-email/" + "x" * 5000).status_code == 400
    with mail.record_messages() as outbox:
        client.post("/api/auth/signup", json=signup_body())
    raw = token_in(outbox[0].body, "/email-verification")
    token = db.session.scalar(select(AccountToken))
    token.expires_at = token.created_at
    db.session.commit()
    assert client.get(f"/api/auth/verify-email/{raw}").status_code == 400
    assert db.session.scalar(select(Account)).status == AccountStatus.EMAIL_PENDING


def test_resend_verification_replaces_the_link(client):
    with mail.record_messages() as outbox:
        client.post("/api/auth/signup", json=signup_body())
        res = client.post("/api/auth/resend-verification", json={"email": "juan.dela-cruz@example.test"})
    assert res.status_code == 200 and res.json["message"] == "Verification email resent. Check your inbox."
    first, second = (token_in(m.body, "/email-verification") for m in outbox)
    assert client.get(f"/api/auth/verify-email/{first}").status_code == 400
    assert client.get(f"/api/auth/verify-email/{second}").status_code == 200


def test_resend_answers_the_same_for_unknown_email_and_sends_nothing(client):
    with mail.record_messages() as outbox:
        res = client.post("/api/auth/resend-verification", json={"email": "ghost@example.test"})
    assert res.status_code == 200 and outbox == []
    assert client.post("/api/auth/resend-verification", json={"email": "bad"}).status_code == 400
    assert client.post("/api/auth/resend-verification", json={}).status_code == 400
    assert client.post("/api/auth/resend-verification", json={"email": ["x"]}).status_code == 400


def test_resend_is_rate_limited(client):
    for _ in range(5):
        client.post("/api/auth/resend-verification", json={"email": "a@example.test"})
    res = client.post("/api/auth/resend-verification", json={"email": "a@example.test"})
    assert res.status_code == 429 and res.json["message"] and int(res.headers["Retry-After"]) > 0


@pytest.mark.parametrize(
    ("status", "enabled", "expected"),
    [
        (AccountStatus.ACTIVE, True, "active"),
        (AccountStatus.EMAIL_PENDING, True, "email_pending"),
        (AccountStatus.PENDING, True, "pending"),
        (AccountStatus.REJECTED, True, "rejected"),
        (AccountStatus.ACTIVE, False, "disabled"),
    ],
)
def test_check_status_reports_each_state(client, status, enabled, expected):
    account = make_account(status=status, is_enabled=enabled)
    res = client.get(f"/api/auth/check-status/{account.username}")
    assert res.status_code == 200 and res.json["status"] == expected and res.json["message"]
    assert client.get(f"/api/auth/check-status/{account.email}").json["status"] == expected


def test_check_status_unknown_and_overlong_are_404(client):
    assert client.get("/api/auth/check-status/nobody").status_code == 404
    res = client.get("/api/auth/check-status/" + "u" * 10_000)
    assert res.status_code == 404 and res.is_json


def test_check_status_is_rate_limited(client):
    for _ in range(20):
        client.get("/api/auth/check-status/nobody")
    assert client.get("/api/auth/check-status/nobody").status_code == 429


def test_nothing_about_tokens_is_written_by_signup(client):
    client.post("/api/auth/signup", json=signup_body())
    assert count(ApiToken) == 0
