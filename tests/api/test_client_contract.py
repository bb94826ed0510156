"""The spec's own client works against /api (it plays from another origin).

Each cause has its contract here: CSRF for anonymous cookies, SIBOL_CLIENT_URL for links and
redirects, PUT without status, the allowed-modules shape, the household endpoints the client reads,
the weak-password message, and JSON with CORS headers on the client's fallback paths.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from sibol.extensions import db, mail
from sibol.models import Account, Machine, RoleId
from tests.auth_oauth_provider import OAuthProvider
from tests.factories import DEFAULT_PASSWORD, make_account, make_admin, make_machine
from tests.factories_admin import make_pending
from tests.factories_auth import code_in, signup_body
from tests.factories_household import make_schedule
from tests.factories_machines import area_id, status_id
from tests.support.google import google_flow, google_user

CLIENT = "https://app.example.org"
CSRF_ON = {"WTF_CSRF_ENABLED": True, "SIBOL_CORS_ORIGINS": [CLIENT]}
WITH_CLIENT = {"SIBOL_CLIENT_URL": CLIENT, "SIBOL_CORS_ORIGINS": [CLIENT]}
EXPIRED = "The form expired or its security token is missing. Reload the page and try again."


def csrf_token_of_page(client) -> str:
    """Visit one of our pages, as the client's users do (a link from an e-mail, the Google button)."""
    html = client.get("/login").get_data(as_text=True)
    assert client.get_cookie("session") is not None  # the browser now holds our session cookie
    return html.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]


# Cause 1: CSRF ---------------------------------------------------------------------------------


@pytest.mark.parametrize("app_overrides", [CSRF_ON])
def test_anonymous_cookie_json_calls_need_no_csrf_token(client):
    user = make_account()
    csrf_token_of_page(client)
    origin = {"Origin": CLIENT}
    res = client.post("/api/auth/forgot-password", json={"email": user.email}, headers=origin)
    assert res.status_code == 200 and res.json["message"] == "Reset code sent. Check your email."
    assert res.headers["Access-Control-Allow-Origin"] == CLIENT
    res = client.post("/api/auth/signup", json=signup_body("new.one@example.test"), headers=origin)
    assert res.status_code == 201 and res.json["username"] == "new.one"
    res = client.post("/api/auth/resend-verification", json={"email": "new.one@example.test"}, headers=origin)
    assert res.status_code == 200 and res.json["success"] is True
    res = client.post(
        "/api/auth/login", json={"username": user.username, "password": DEFAULT_PASSWORD}, headers=origin
    )
    assert res.status_code == 200 and res.json["user"]["Username"] == user.username


@pytest.mark.parametrize("app_overrides", [CSRF_ON])
def test_signed_in_cookie_still_needs_the_csrf_header(client):
    """The client's own sign-in (exempt while the cookie is anonymous) signs the cookie in too."""
    user = make_account()
    token = csrf_token_of_page(client)
    signed_in = client.post("/api/auth/login", json={"username": user.username, "password": DEFAULT_PASSWORD})
    assert signed_in.status_code == 200
    body = {"areaId": area_id("Purok 1")}
    refused = client.post("/api/machines", json=body)
    assert refused.status_code == 400 and refused.json["message"] == EXPIRED
    refused = client.post("/api/auth/forgot-password", json={"email": user.email})
    assert refused.status_code == 400 and refused.json["message"] == EXPIRED
    assert db.session.query(Machine).count() == 0
    ok = client.post("/api/machines", json=body, headers={"X-CSRFToken": token})
    assert ok.status_code == 201


@pytest.mark.parametrize("app_overrides", [CSRF_ON])
def test_anonymous_cookie_without_a_json_body_still_needs_the_token(client):
    """A form post (which any site can send) is not exempt, under /api or on pages."""
    user = make_account()
    csrf_token_of_page(client)
    form = {"username": user.username, "password": DEFAULT_PASSWORD}
    res = client.post("/api/auth/login", data=form)
    assert res.status_code == 400 and res.json["message"] == EXPIRED
    res = client.post("/api/auth/login", data=json.dumps(form), content_type="text/plain")
    assert res.status_code == 400 and res.json["message"] == EXPIRED
    page = client.post("/login", data=form)
    assert page.status_code == 400 and "security token" in page.get_data(as_text=True)


# Cause 2: SIBOL_CLIENT_URL ---------------------------------------------------------------------


def verification_link_after_signup(client, email: str) -> str:
    with mail.record_messages() as outbox:
        assert client.post("/api/auth/signup", json=signup_body(email)).status_code == 201
    (message,) = outbox
    return next(word for word in message.body.split() if "/email-verification?" in word)


def test_without_client_url_links_lead_to_our_pages(client):
    link = urlsplit(verification_link_after_signup(client, "ours@example.test"))
    assert f"{link.scheme}://{link.netloc}{link.path}" == "http://localhost/email-verification"
    assert list(parse_qs(link.query)) == ["token"]


@pytest.mark.parametrize("app_overrides", [WITH_CLIENT])
def test_verification_link_leads_to_the_client_and_its_token_verifies(client):
    link = urlsplit(verification_link_after_signup(client, "theirs@example.test"))
    assert f"{link.scheme}://{link.netloc}{link.path}" == f"{CLIENT}/email-verification"
    query = parse_qs(link.query)
    assert query["email"] == ["theirs@example.test"]
    res = client.get(f"/api/auth/verify-email/{query['token'][0]}")
    assert res.status_code == 200 and res.json["email"] == "theirs@example.test"


@pytest.mark.parametrize("app_overrides", [WITH_CLIENT])
def test_approval_mail_signs_in_on_the_client_and_sets_the_password_on_our_page(client, api_headers):
    headers = api_headers(make_admin())
    with_password = make_pending(email="wait@example.test", password=DEFAULT_PASSWORD)
    without = make_pending(email="new@example.test")
    with mail.record_messages() as outbox:
        for account in (with_password, without):
            res = client.post(f"/api/admin/pending-accounts/{account.id}/approve", headers=headers)
            assert res.status_code == 200
    signs_in, sets_password = outbox
    assert f"{CLIENT}/login" in signs_in.body and f'href="{CLIENT}/login"' in signs_in.html
    assert "http://localhost/set-password?token=" in sets_password.body  # the client has no such step
    assert CLIENT not in sets_password.body


def set_password_link(body: str) -> str:
    return next(word for word in body.split() if "/set-password?token=" in word)


@pytest.mark.parametrize(("app_overrides", "sign_in"), [({}, "/login"), (WITH_CLIENT, f"{CLIENT}/login")])
def test_set_password_page_ends_on_the_clients_sign_in(client, api_headers, sign_in):
    """The approval mail's set-password step (our page: the client has none) hands the new user
    back to the sign-in they use: the client's /login when SIBOL_CLIENT_URL is set."""
    pending = make_pending(email="first@example.test")
    with mail.record_messages() as outbox:
        res = client.post(
            f"/api/admin/pending-accounts/{pending.id}/approve", headers=api_headers(make_admin())
        )
        assert res.status_code == 200
    link = urlsplit(set_password_link(outbox[0].body))
    assert f"{link.scheme}://{link.netloc}{link.path}" == "http://localhost/set-password"
    token = parse_qs(link.query)["token"][0]
    done = client.post(
        "/set-password", data={"token": token, "newPassword": "Fir5t-Pass!", "confirmPassword": "Fir5t-Pass!"}
    )
    assert done.status_code == 302
    assert done.headers["Location"] == f"{sign_in}?username={pending.username}"
    signed_in = client.post("/api/auth/login", json={"username": pending.username, "password": "Fir5t-Pass!"})
    assert signed_in.status_code == 200
    # A spent or unknown link offers the way back to the same sign-in.
    again = client.get(f"/set-password?token={token}").get_data(as_text=True)
    assert f'href="{sign_in}">Back to Login' in again


@pytest.mark.parametrize(("app_overrides", "sign_in"), [({}, "/login"), (WITH_CLIENT, f"{CLIENT}/login")])
def test_reset_and_verification_pages_end_on_the_clients_sign_in(client, app, sign_in):
    user = make_account(email="forgot@example.test")
    with mail.record_messages() as outbox:
        client.post("/forgot-password", data={"email": user.email})
    code = code_in(outbox[0].body)
    form = {"email": user.email, "code": code, "newPassword": "Rese7-Pass!", "confirmPassword": "Rese7-Pass!"}
    done = client.post("/forgot-password/reset", data=form).get_data(as_text=True)
    assert "Your password was reset successfully." in done
    assert f'href="{sign_in}" id="forgot-close"' in done
    verification = client.get("/email-verification?email=forgot%40example.test").get_data(as_text=True)
    assert f'href="{sign_in}">Back to Login' in verification
    pending = make_pending(email="waiting@example.test")
    page = client.get(f"/pending-approval?username={pending.username}&email={pending.email}")
    html = page.get_data(as_text=True)
    assert f'href="{sign_in}">Back to Login' in html
    assert f'"signInUrl": "{sign_in}"' in html  # where the island goes once the account is approved
    db.session.get(Account, pending.id).status = "active"
    db.session.commit()
    checked = client.get(f"/pending-approval?username={pending.username}&check=1").get_data(as_text=True)
    assert f'href="{sign_in}?username={pending.username}">Sign in' in checked


@pytest.fixture
def google(database_url, monkeypatch, tmp_path):
    """(test client, provider): an app with Google sign-in against a local provider and the
    client's address set."""
    from sibol import create_app, seed
    from tests.conftest import base_overrides, empty_all_tables

    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")  # the local provider speaks http
    provider = OAuthProvider().start()
    app = create_app(base_overrides(database_url, **provider.config(), **WITH_CLIENT))
    try:
        with app.app_context():
            empty_all_tables()
            seed.reference_data()
            yield app.test_client(), provider
            db.session.remove()
    finally:
        provider.stop()


def test_google_sign_in_hands_the_token_to_the_clients_dashboard(google):
    google_client, provider = google
    account = make_account(email="ana@example.test")
    res = google_flow(google_client, provider, google_user())
    location = urlsplit(res.headers["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == f"{CLIENT}/dashboard"
    fragment = parse_qs(location.fragment)
    assert json.loads(fragment["user"][0])["Username"] == account.username
    token = fragment["token"][0]
    allowed = google_client.get("/api/modules/allowed", headers={"Authorization": f"Bearer {token}"})
    assert allowed.status_code == 200


def test_google_outcomes_lead_to_the_clients_routes(google):
    google_client, provider = google
    res = google_flow(google_client, provider, google_user("new@example.test", "g-1"))
    location = urlsplit(res.headers["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == f"{CLIENT}/signup"
    assert parse_qs(location.query)["sso"] == ["google"]
    # The client then registers in Google mode from its origin, with the browser's cookie.
    done = google_client.post(
        "/api/auth/signup", json=signup_body("new@example.test", isSSO=True), headers={"Origin": CLIENT}
    )
    assert done.status_code == 201 and done.json["status"] == "pending"
    res = google_flow(google_client, provider, google_user("new@example.test", "g-1"))
    location = urlsplit(res.headers["Location"])
    assert location.netloc == "app.example.org" and location.path == "/pending-approval"
    assert parse_qs(location.query)["username"] == ["new"]
    make_account(email="off@example.test", is_enabled=False)
    res = google_flow(google_client, provider, google_user("off@example.test", "g-2"))
    assert res.headers["Location"] == f"{CLIENT}/login?auth=fail"


# Cause 3: PUT without status --------------------------------------------------------------------


def test_put_without_status_clears_it(client, api_headers):
    headers = api_headers(make_account(role=RoleId.STAFF))
    machine = make_machine("Digester", status_id=status_id("Active"))
    res = client.put(
        f"/api/machines/{machine.id}", json={"name": "Digester", "areaId": area_id()}, headers=headers
    )
    assert res.status_code == 200 and res.json["data"]["status_id"] is None
    assert db.session.get(Machine, machine.id).status_id is None
    # Our own islands send what they mean: a status is set when sent.
    body = {"name": "Digester", "areaId": area_id(), "status": status_id("Active")}
    res = client.put(f"/api/machines/{machine.id}", json=body, headers=headers)
    assert res.json["data"]["status_name"] == "Active"


# Cause 4: allowed modules ------------------------------------------------------------------------


def test_allowed_modules_is_a_plain_list_of_entries(client, api_headers):
    res = client.get("/api/modules/allowed", headers=api_headers(make_account(role=RoleId.HOUSEHOLD)))
    assert res.status_code == 200 and isinstance(res.json, list)
    assert [(m["Module_id"], m["key"], m["path"]) for m in res.json] == [
        (1, "dashboard", "/dashboard"),
        (4, "household", "/household"),
        (5, "chat_support", "/chat-support"),
    ]
    assert all("id" not in m for m in res.json)
    admin = client.get("/api/modules/allowed", headers=api_headers(make_admin())).json
    assert {"key": "admin", "name": "Admin", "path": "/admin", "Module_id": 6}.items() <= admin[-1].items()


def spec_client_shows_admin_link(allowed) -> bool:
    """Spec section 6, the allowed-modules half of the Admin link rule, read as the spec's client
    reads the list (a list or an object map): it "includes the admin entry or id 1"."""
    entries = list(allowed.values()) if isinstance(allowed, dict) else list(allowed)
    for entry in entries:
        if entry in (1, "1", "admin"):
            return True
        if isinstance(entry, dict) and (
            entry.get("id") in (1, "1")
            or entry.get("key") == "admin"
            or entry.get("name") == "Admin"
            or entry.get("path") == "/admin"
        ):
            return True
    return False


def test_the_admin_entry_marks_exactly_the_accounts_holding_module_6(client, api_headers):
    """Every set of modules, under roles that do and do not default to Admin: the list shows the
    Admin link exactly when the account holds module 6."""
    seen = {True: 0, False: 0}
    for mask in range(1 << 6):
        modules = [m for m in range(1, 7) if mask & (1 << (m - 1))]
        role = (RoleId.HOUSEHOLD, RoleId.STAFF, RoleId.OPERATOR, RoleId.ADMIN)[mask % 4]
        account = make_account(role=role, modules=modules, password=None)
        res = client.get("/api/modules/allowed", headers=api_headers(account))
        assert res.status_code == 200
        holds_admin = 6 in modules
        assert spec_client_shows_admin_link(res.json) is holds_admin, (role, modules, res.json)
        seen[holds_admin] += 1
    assert seen == {True: 32, False: 32}


# Cause 5: the household endpoints ----------------------------------------------------------------


def test_household_endpoints_answer_the_clients_shapes(client, api_headers):
    from datetime import date

    make_schedule(
        areas=("Purok 2", "Purok 1"), person="Maria Santos", contact="0917 111 2222", when=date(2026, 2, 1)
    )
    make_schedule(
        areas=("purok 1",),
        person="maria santos",
        contact="maria@example.test",
        when=date(2026, 3, 1),
        status="Collected",
        grams=2500,
    )
    make_schedule(areas=("Purok 3",), person="Jose Rizal", when=date(2026, 1, 1))
    headers = api_headers(make_account(role=RoleId.HOUSEHOLD))
    rows = client.get("/api/schedules", headers=headers).json
    assert [
        (r["maintenancePerson"], r["area"], r["status"], r["dateOfCollection"], r["totalWaste"]) for r in rows
    ] == [
        ("maria santos", "purok 1", "Collected", "2026-03-01", 2.5),
        ("Maria Santos", "Purok 2, Purok 1", "Pending", "2026-02-01", None),
        ("Jose Rizal", "Purok 3", "Pending", "2026-01-01", None),
    ]
    assert rows[0]["collectorContact"] == "maria@example.test"
    collected = client.get("/api/schedules?status=Collected&q=PUROK", headers=headers).json
    assert [r["dateOfCollection"] for r in collected] == ["2026-03-01"]
    # The client's own names, areas and operators: tests/api/test_client_schedules.py.
    bad = client.get("/api/schedules?status=Lost", headers=headers)
    assert bad.status_code == 400 and bad.json["field"] == "status"


@pytest.mark.parametrize("path", ["/api/schedules", "/api/areas", "/api/operators"])
def test_household_endpoints_follow_the_household_access_rule(client, api_headers, path):
    assert client.get(path).status_code == 401
    # Operators hold Household by default; without the module the answer is 403.
    no_module = make_account(role=RoleId.OPERATOR, modules=[1, 2, 3, 5])
    operator = client.get(path, headers=api_headers(no_module))
    assert operator.status_code == 403 and operator.json["module"] == 4
    staff = client.get(path, headers=api_headers(make_account(role=RoleId.STAFF)))
    assert staff.status_code == 200 and isinstance(staff.json, list)


# Cause 6: the client's generated password ---------------------------------------------------------
# (the temporary password's own rules are in tests/api/test_temporary_password.py)


def test_admin_create_with_the_clients_generated_password_makes_it_temporary(client, api_headers):
    body = {
        "FirstName": "Lito",
        "LastName": "Reyes",
        "Email": "lito@example.test",
        "Roles": 3,
        "Password": "k3x9a0qz",  # 8 lower-case letters and digits, as the client generates for a blank one
    }
    with mail.record_messages() as outbox:
        res = client.post("/api/admin/create", json=body, headers=api_headers(make_admin()))
    assert res.status_code == 201 and res.json["passwordTemporary"] is True
    assert res.json["setPasswordLinkSent"] is True and "k3x9a0qz" not in res.get_data(as_text=True)
    (message,) = outbox
    assert "/set-password?token=" in message.body and "k3x9a0qz" not in message.body + message.html
    login = client.post("/api/auth/login", json={"username": "lito.reyes", "password": "k3x9a0qz"})
    assert login.status_code == 200 and login.json["passwordTemporary"] is True
    assert login.json["user"]["Username"] == "lito.reyes"
    body.update(Email="strong@example.test", FirstName="Lita", Password="K3x9a0q!")
    strong = client.post("/api/admin/create", json=body, headers=api_headers(make_admin()))
    assert strong.status_code == 201 and strong.json["passwordTemporary"] is False


# The client's fallback paths ------------------------------------------------------------------------

FALLBACKS = [
    "/admin/pending-accounts",
    "/api/pending-accounts",
    "/pending-accounts",
    "/admin/barangays",
    "/api/barangays",
    "/barangays",
]


@pytest.mark.parametrize("app_overrides", [CSRF_ON])
@pytest.mark.parametrize("path", FALLBACKS)
def test_fallback_paths_answer_json_with_cors_headers(client, api_headers, path):
    csrf_token_of_page(client)  # a browser cookie, so a write would meet the CSRF check
    origin = {"Origin": CLIENT, **api_headers(make_admin())}
    listed = client.get(path, headers=origin)
    assert listed.status_code == 404 and listed.json["message"] == "Not found."
    assert listed.headers["Access-Control-Allow-Origin"] == CLIENT
    preflight = client.options(
        f"{path}/7/approve", headers={"Origin": CLIENT, "Access-Control-Request-Method": "POST"}
    )
    assert preflight.status_code == 204 and preflight.headers["Access-Control-Allow-Origin"] == CLIENT
    approve = client.post(f"{path}/7/approve", headers={"Origin": CLIENT}, json={})
    assert approve.status_code == 404 and approve.is_json
    assert approve.headers["Access-Control-Allow-Origin"] == CLIENT
