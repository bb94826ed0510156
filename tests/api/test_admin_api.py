"""/api/admin/*: every call of spec section 7's admin rows, its paging additions and its errors."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import func, select

from sibol.extensions import db, mail
from sibol.models import Account, AccountStatus, ApiToken, Barangay, ModuleId, RoleId
from sibol.models.admin import AuditEntry
from sibol.models.auth import AccountToken, TokenPurpose
from tests.factories import DEFAULT_PASSWORD, make_account, make_admin
from tests.factories_admin import make_pending

pytestmark = pytest.mark.usefixtures("fresh_identity")


@pytest.fixture
def admin(app):
    return make_admin(username="boss", first_name="Ana", last_name="Admin")


@pytest.fixture
def h(admin, api_headers):
    return api_headers(admin)


def first_barangay() -> int:
    return db.session.scalar(select(Barangay.id).order_by(Barangay.id))


def count(model) -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(model))


def audit_of(account_id: int) -> list[AuditEntry]:
    return list(
        db.session.scalars(
            select(AuditEntry).where(AuditEntry.target_id == account_id).order_by(AuditEntry.id)
        )
    )


# Access ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/admin/accounts",
        "/api/admin/pending-accounts",
        "/api/admin/roles",
        "/api/admin/modules",
        "/api/admin/barangays",
    ],
)
def test_admin_lists_need_the_admin_module(client, api_headers, path):
    assert client.get(path).status_code == 401
    staff = make_account(role=RoleId.STAFF)
    res = client.get(path, headers=api_headers(staff))
    assert res.status_code == 403 and res.json["success"] is False
    # The module decides, not the role: a staff member given module 6 may administer.
    helper = make_account(role=RoleId.STAFF, modules=[1, 6])
    assert client.get(path, headers=api_headers(helper)).status_code == 200


# Lists ----------------------------------------------------------------------------------------


def test_accounts_list_has_the_spec_fields(client, h, admin):
    make_account(
        first_name="Juan",
        last_name="Cruz",
        email="juan@example.test",
        username="juan.cruz",
        role=RoleId.OPERATOR,
        barangay_id=first_barangay(),
    )
    res = client.get("/api/admin/accounts", headers=h)
    assert res.status_code == 200 and res.json["success"] is True
    assert res.json["users"] == res.json["list"]
    juan = next(u for u in res.json["users"] if u["Username"] == "juan.cruz")
    assert juan["FirstName"] == "Juan" and juan["LastName"] == "Cruz"
    assert juan["Email"] == "juan@example.test" and juan["Barangay_id"] == first_barangay()
    assert juan["Roles"] == RoleId.OPERATOR and juan["IsActive"] == 1 and juan["Access"] == [1, 2, 3, 4, 5]
    assert isinstance(juan["Account_id"], int)


def test_accounts_list_pages_searches_and_filters(client, h, admin):
    for n in range(24):
        make_account(
            username=f"member{n:02d}",
            first_name="Member",
            last_name=f"No{n}",
            role=RoleId.HOUSEHOLD if n % 2 else RoleId.OPERATOR,
        )
    make_account(username="zed", first_name="Zenaida", last_name="Reyes", email="ZR@Barangay.ph")
    make_pending(username="waiting")  # awaiting approval: on the other tab
    res = client.get("/api/admin/accounts?page=3&per_page=10", headers=h)
    assert res.json["total"] == 26 and res.json["page"] == 3 and res.json["per_page"] == 10
    assert len(res.json["users"]) == 6
    everything = client.get("/api/admin/accounts", headers=h).json
    assert everything["total"] == 26 and len(everything["users"]) == 26
    assert "waiting" not in {u["Username"] for u in everything["users"]}
    for q in ("zenaida", "REYES", "zr@barangay", "ZED"):
        found = client.get(f"/api/admin/accounts?q={q}", headers=h).json["users"]
        assert [u["Username"] for u in found] == ["zed"], q
    # LIKE wildcards are literal.
    assert client.get("/api/admin/accounts?q=%25", headers=h).json["total"] == 0
    households = client.get(f"/api/admin/accounts?role={int(RoleId.HOUSEHOLD)}&per_page=100", headers=h).json
    assert households["total"] == 12
    assert {u["Roles"] for u in households["users"]} == {int(RoleId.HOUSEHOLD)}
    mixed = client.get("/api/admin/accounts?q=member&role=3&page=2&per_page=5", headers=h).json
    assert mixed["total"] == 12 and len(mixed["users"]) == 5


@pytest.mark.parametrize(
    "query", ["role=9", "role=abc", "page=0", "per_page=1000", "page=x", "q=" + "a" * 101]
)
def test_accounts_list_refuses_bad_parameters(client, h, query):
    res = client.get(f"/api/admin/accounts?{query}", headers=h)
    assert res.status_code == 400 and res.json["message"]


def test_pending_accounts_list(client, h):
    first = make_pending(first_name="Pia", last_name="Pending", username="pia")
    make_account(status=AccountStatus.EMAIL_PENDING, username="unverified")
    res = client.get("/api/admin/pending-accounts", headers=h)
    assert res.status_code == 200
    rows = res.json["pendingAccounts"]
    assert rows == res.json["list"] and len(rows) == 1
    assert rows[0]["Pending_id"] == first.id and rows[0]["Username"] == "pia"
    assert rows[0]["FirstName"] == "Pia" and rows[0]["LastName"] == "Pending" and rows[0]["Email"]


def test_reference_lists(client, h):
    roles = client.get("/api/admin/roles", headers=h).json["roles"]
    assert [(r["Roles_id"], r["Roles"]) for r in roles] == [
        (1, "Admin"),
        (2, "Barangay Staff"),
        (3, "Operator"),
        (4, "Household"),
    ]
    modules = client.get("/api/admin/modules", headers=h).json["modules"]
    assert [m["Module_id"] for m in modules] == [1, 2, 3, 4, 5, 6]
    assert modules[5]["Module_name"] == "Admin" and modules[5]["Path"] == "/admin"
    barangays = client.get("/api/admin/barangays", headers=h).json["barangays"]
    assert barangays and {"Barangay_id", "Barangay_Name"} <= set(barangays[0])


# Create ---------------------------------------------------------------------------------------


def create_body(**extra):
    body = {"FirstName": "Maria Clara", "LastName": "De la Cruz", "Email": "maria@example.test", "Roles": 2}
    body.update(extra)
    return body


def test_create_with_blank_password_mails_a_single_use_set_password_link(client, h, admin):
    with mail.record_messages() as outbox:
        res = client.post(
            "/api/admin/create", json=create_body(Password="", Barangay_id=first_barangay()), headers=h
        )
    assert res.status_code == 201, res.json
    user = res.json["user"]
    assert "generatedPassword" not in res.json and not any("password" in k.lower() for k in res.json["user"])
    assert res.json["setPasswordLinkSent"] is True
    assert user["Barangay_id"] == first_barangay()
    assert user["Username"] == "maria.clara.de.la.cruz"
    assert user["Access"] == [1, 2, 3, 4, 5]  # Barangay Staff defaults
    assert len(outbox) == 1 and outbox[0].recipients == ["maria@example.test"]
    body = outbox[0].body
    assert "maria.clara.de.la.cruz" in body and "Password:" not in body
    token = re.search(r"/set-password\?token=(\S+)", body).group(1)
    # No password works until the link is used; then the chosen one does, and the link is spent.
    refused = client.post("/api/auth/login", json={"username": user["Username"], "password": "x"})
    assert refused.status_code == 401
    chosen = client.post("/api/auth/set-password", json={"token": token, "newPassword": "Chos3n!pass"})
    assert chosen.status_code == 200, chosen.json
    login = client.post("/api/auth/login", json={"username": user["Username"], "password": "Chos3n!pass"})
    assert login.status_code == 200
    again = client.post("/api/auth/set-password", json={"token": token, "newPassword": "0ther!pass"})
    assert again.status_code == 400
    [entry] = audit_of(user["Account_id"])
    assert entry.action == "create" and entry.actor_id == admin.id
    assert json.loads(entry.details) == {"role": 2, "access": [1, 2, 3, 4, 5]}


def test_create_with_a_password_and_chosen_access(client, h):
    with mail.record_messages() as outbox:
        res = client.post(
            "/api/admin/create",
            headers=h,
            json=create_body(Password="Str0ng!pass", Access=["dashboard", "Household", 5], Barangay_id=None),
        )
    assert res.status_code == 201
    assert "generatedPassword" not in res.json and res.json["setPasswordLinkSent"] is False
    assert "Str0ng!pass" not in res.get_data(as_text=True)
    assert res.json["user"]["Access"] == [1, 4, 5] and res.json["user"]["Barangay_id"] == first_barangay()
    assert "Str0ng!pass" not in outbox[0].body
    assert (
        client.post(
            "/api/auth/login", json={"username": "maria.clara.de.la.cruz", "password": "Str0ng!pass"}
        ).status_code
        == 200
    )


def test_create_makes_the_derived_username_unique(client, h):
    make_account(username="jose.rizal")
    make_account(username="jose.rizal2")
    res = client.post(
        "/api/admin/create",
        headers=h,
        json=create_body(FirstName="José", LastName="Rizal!", Email="jr@example.test"),
    )
    # Only a-z 0-9 . _ - are kept: the accented letter goes.
    assert res.json["user"]["Username"] == "jos.rizal"
    res = client.post(
        "/api/admin/create",
        headers=h,
        json=create_body(FirstName="Jose", LastName="Rizal", Email="jr2@example.test"),
    )
    assert res.json["user"]["Username"] == "jose.rizal3"
    # The spec's client sends the same derivation as Username: it is made unique too.
    res = client.post(
        "/api/admin/create",
        headers=h,
        json=create_body(FirstName="Jose", LastName="Rizal", Email="jr3@example.test", Username="jose.rizal"),
    )
    assert res.status_code == 201 and res.json["user"]["Username"] == "jose.rizal4"
    # A different username chosen on purpose must be free.
    res = client.post(
        "/api/admin/create",
        headers=h,
        json=create_body(
            FirstName="Jose", LastName="Rizal", Email="jr4@example.test", Username="jose.rizal2"
        ),
    )
    assert res.status_code == 409 and res.json["field"] == "Username"
    res = client.post(
        "/api/admin/create",
        headers=h,
        json=create_body(FirstName="Jose", LastName="Rizal", Email="jr4@example.test", Username="pepe"),
    )
    assert res.status_code == 201 and res.json["user"]["Username"] == "pepe"


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        (create_body(Email="user1@example.test"), 409, "Email"),
        (create_body(Email="MARIA@example.test", Username="taken"), 409, None),
        (create_body(Roles=9), 400, "Roles"),
        (create_body(Roles="admin"), 400, "Roles"),
        (create_body(Access=[1, 99]), 400, "Access"),
        (create_body(Access=["teleport"]), 400, "Access"),
        (create_body(Access=7), 400, "Access"),
        (create_body(Barangay_id=99999), 404, "Barangay_id"),  # as another barangay's id
        (create_body(Password="weak"), 400, "Password"),
        (create_body(Email="not-an-email"), 400, "Email"),
        (create_body(FirstName=""), 400, "FirstName"),
        (create_body(FirstName=["x"]), 400, "FirstName"),
        (create_body(LastName="x" * 101), 400, "LastName"),
        (create_body(Username="bad name!"), 400, "Username"),
    ],
    ids=lambda v: v if isinstance(v, str | int) else None,
)
def test_create_refusals_write_nothing(client, h, body, status, field):
    make_account(username="taken", email="user1@example.test")
    if "Username" in body and body["Username"] == "taken":
        body["Email"] = "fresh@example.test"
    before = count(Account), count(AuditEntry)
    with mail.record_messages() as outbox:
        res = client.post("/api/admin/create", json=body, headers=h)
    assert res.status_code == status, res.json
    assert res.json["success"] is False and res.json["message"]
    if field:
        assert res.json["field"] == field
    assert (count(Account), count(AuditEntry)) == before and outbox == []


def test_create_refuses_malformed_bodies(client, h):
    raw = client.post(
        "/api/admin/create", data="{not json", headers={**h, "Content-Type": "application/json"}
    )
    assert raw.status_code == 400 and raw.is_json
    assert client.post("/api/admin/create", json=[1, 2], headers=h).status_code == 400
    assert client.post("/api/admin/create", headers=h).status_code == 400
    assert client.post("/api/admin/create", data="a=b", headers=h).status_code == 415


# Edit -----------------------------------------------------------------------------------------


def test_edit_changes_role_and_access_only_and_is_audited(client, h, admin):
    user = make_account(role=RoleId.HOUSEHOLD, first_name="Old", email="keep@example.test", username="keepme")
    res = client.put(
        f"/api/admin/{user.id}",
        headers=h,
        json={
            "Account_id": user.id,
            "Username": "hacked",
            "FirstName": "New",
            "Email": "new@example.test",
            "Barangay_id": first_barangay(),
            "Roles": 2,
            "Access": [1, 2, 3],
        },
    )
    assert (
        res.status_code == 200 and res.json["user"]["Roles"] == 2 and res.json["user"]["Access"] == [1, 2, 3]
    )
    db.session.expire_all()
    stored = db.session.get(Account, user.id)
    assert (stored.username, stored.first_name, stored.email, stored.barangay_id) == (
        "keepme",
        "Old",
        "keep@example.test",
        first_barangay(),  # The factory's account is in the first barangay
    )
    [entry] = audit_of(user.id)
    assert entry.action == "edit" and entry.actor_username == "boss"
    assert json.loads(entry.details) == {
        "before": {"role": 4, "access": [1, 4, 5]},
        "after": {"role": 2, "access": [1, 2, 3]},
    }
    detail = client.get(f"/api/admin/{user.id}", headers=h).json
    assert detail["audit"][0]["action"] == "edit"
    assert "role Household to Barangay Staff" in detail["audit"][0]["summary"]
    # The new access holds at once: module 2's API/page is open, module 4's is not.
    user_client = client.application.test_client()
    user_client.post("/login", data={"username": "keepme", "password": DEFAULT_PASSWORD})
    assert user_client.get("/sibol-machines").status_code == 200
    assert user_client.get("/household").status_code == 403


def test_edit_refusals(client, h, admin):
    user = make_account(role=RoleId.HOUSEHOLD)
    assert client.put("/api/admin/999999", json={"Roles": 2}, headers=h).status_code == 404
    for body in ({"Roles": 7}, {"Access": [0]}, {"Roles": True}, {"Access": {"a": 1}}):
        res = client.put(f"/api/admin/{user.id}", json=body, headers=h)
        assert res.status_code == 400, body
    assert (
        client.put(
            f"/api/admin/{user.id}", data="[", headers={**h, "Content-Type": "application/json"}
        ).status_code
        == 400
    )
    db.session.expire_all()
    assert db.session.get(Account, user.id).role_id == RoleId.HOUSEHOLD and audit_of(user.id) == []


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({}, "Roles", "Send Roles, Access or both: the edit changes an account's role and access."),
        ({"FirstName": "Only", "Email": "a@b.test"}, "Roles", "Send Roles, Access or both"),
        ({"Roles": None}, "Roles", "Roles must be a role id, not empty."),
        ({"Roles": None, "Access": [1]}, "Roles", "Roles must be a role id, not empty."),
        ({"Roles": ""}, "Roles", "Roles must be a role id, not empty."),
        ({"roleId": None}, "Roles", "Roles must be a role id, not empty."),
        ({"Access": None}, "Access", "Access must be a list of module ids or names, not empty."),
        ({"Roles": 2, "Access": None}, "Access", "Access must be a list of module ids or names, not empty."),
    ],
)
def test_an_edit_that_names_nothing_to_change_is_refused(client, h, admin, body, field, message):
    user = make_account(role=RoleId.HOUSEHOLD)
    res = client.put(f"/api/admin/{user.id}", json=body, headers=h)
    assert res.status_code == 400 and res.json["field"] == field and message in res.json["message"]
    db.session.expire_all()
    assert db.session.get(Account, user.id).role_id == RoleId.HOUSEHOLD and audit_of(user.id) == []


def test_last_active_admin_cannot_be_demoted_stripped_or_disabled(client, h, admin, api_headers):
    other = make_admin(username="deputy")
    other.is_enabled = False  # a disabled admin does not count
    db.session.commit()
    for call in (
        lambda: client.put(f"/api/admin/{admin.id}", json={"Roles": 2}, headers=h),
        lambda: client.put(f"/api/admin/{admin.id}", json={"Access": [1, 2, 3]}, headers=h),
    ):
        res = call()
        assert res.status_code == 409 and "last active administrator" in res.json["message"]
    helper = make_account(role=RoleId.STAFF, modules=[1, 6])  # may administer, but is not an Admin
    res = client.patch(f"/api/admin/{admin.id}/active", json={"isActive": False}, headers=api_headers(helper))
    assert res.status_code == 409 and "last active administrator" in res.json["message"]
    db.session.expire_all()
    assert db.session.get(Account, admin.id).is_enabled and db.session.get(Account, admin.id).role_id == 1
    # With a second active admin the change is allowed; then that one is the last.
    other.is_enabled = True
    db.session.commit()
    assert (
        client.put(f"/api/admin/{other.id}", json={"Roles": 2, "Access": [1]}, headers=h).status_code == 200
    )
    assert client.put(f"/api/admin/{admin.id}", json={"Roles": 2}, headers=h).status_code == 409


# Disable / enable -------------------------------------------------------------------------------


def test_disable_ends_sessions_and_tokens_then_enable_restores(client, h, admin, api_headers):
    user = make_account(username="victim")
    user_headers = api_headers(user)
    page_client = client.application.test_client()
    page_client.post("/login", data={"username": "victim", "password": DEFAULT_PASSWORD})
    assert page_client.get("/dashboard").status_code == 200
    assert client.get("/api/modules/allowed", headers=user_headers).status_code == 200

    res = client.patch(f"/api/admin/{user.id}/active", json={"isActive": False}, headers=h)
    assert res.status_code == 200 and res.json["user"]["IsActive"] == 0
    assert client.get("/api/modules/allowed", headers=user_headers).status_code == 401
    page = page_client.get("/dashboard")
    assert page.status_code == 302 and "/login" in page.headers["Location"]
    assert "Your account has been disabled. Contact your barangay administrator." in page_client.get(
        page.headers["Location"]
    ).get_data(as_text=True)
    assert (
        db.session.scalar(
            select(func.count())
            .select_from(ApiToken)
            .where(ApiToken.account_id == user.id, ApiToken.revoked_at.is_(None))
        )
        == 0
    )
    refused = client.post("/api/auth/login", json={"username": "victim", "password": DEFAULT_PASSWORD})
    assert refused.status_code == 403

    res = client.patch(f"/api/admin/{user.id}/active", json={"isActive": 1}, headers=h)
    assert res.status_code == 200 and res.json["user"]["IsActive"] == 1
    assert (
        client.post("/api/auth/login", json={"username": "victim", "password": DEFAULT_PASSWORD}).status_code
        == 200
    )
    assert [e.action for e in audit_of(user.id)] == ["disable", "enable"]


def test_toggle_refusals(client, h, admin):
    user = make_account()
    assert client.patch("/api/admin/999999/active", json={"isActive": False}, headers=h).status_code == 404
    for body in ({}, {"isActive": "no"}, {"isActive": 2}, {"isActive": None}):
        assert client.patch(f"/api/admin/{user.id}/active", json=body, headers=h).status_code == 400, body
    res = client.patch(f"/api/admin/{admin.id}/active", json={"isActive": False}, headers=h)
    make_admin()  # even with another admin, nobody disables themselves
    res = client.patch(f"/api/admin/{admin.id}/active", json={"isActive": False}, headers=h)
    assert res.status_code == 409 and "your own account" in res.json["message"]
    assert audit_of(user.id) == [] and audit_of(admin.id) == []


# Approve / reject -------------------------------------------------------------------------------


def test_approve_without_password_mails_a_set_password_link(client, h, admin):
    pending = make_pending(email="newbie@example.test", username="newbie")
    make_pending()
    with mail.record_messages() as outbox:
        res = client.post(f"/api/admin/pending-accounts/{pending.id}/approve", headers=h)
    assert res.status_code == 200 and res.json["message"] == "Account approved"
    assert res.json["pendingCount"] == 1
    db.session.expire_all()
    assert db.session.get(Account, pending.id).status == AccountStatus.ACTIVE
    ids = [
        p["Pending_id"] for p in client.get("/api/admin/pending-accounts", headers=h).json["pendingAccounts"]
    ]
    assert pending.id not in ids and len(ids) == 1
    [message] = outbox
    assert message.recipients == ["newbie@example.test"] and "approved" in message.subject
    assert "http://localhost/set-password?token=" in message.body
    assert (
        db.session.scalar(
            select(func.count())
            .select_from(AccountToken)
            .where(AccountToken.account_id == pending.id, AccountToken.purpose == TokenPurpose.SET_PASSWORD)
        )
        == 1
    )
    assert [e.action for e in audit_of(pending.id)] == ["approve"]


def test_approved_user_with_password_can_sign_in(client, h):
    pending = make_pending(password=DEFAULT_PASSWORD, username="ready")
    assert (
        client.post("/api/auth/login", json={"username": "ready", "password": DEFAULT_PASSWORD}).status_code
        == 403
    )
    with mail.record_messages() as outbox:
        client.post(f"/api/admin/pending-accounts/{pending.id}/approve", headers=h)
    assert "set-password" not in outbox[0].body and "/login" in outbox[0].body
    assert (
        client.post("/api/auth/login", json={"username": "ready", "password": DEFAULT_PASSWORD}).status_code
        == 200
    )


def test_reject_with_reason(client, h, admin):
    pending = make_pending(password=DEFAULT_PASSWORD, username="nope")
    with mail.record_messages() as outbox:
        res = client.post(
            f"/api/admin/pending-accounts/{pending.id}/reject", json={"reason": "Not a resident"}, headers=h
        )
    assert res.status_code == 200 and res.json["message"] == "Account rejected"
    db.session.expire_all()
    stored = db.session.get(Account, pending.id)
    assert stored.status == AccountStatus.REJECTED and stored.rejection_reason == "Not a resident"
    assert "Not a resident" in outbox[0].body
    [entry] = audit_of(pending.id)
    assert entry.action == "reject" and json.loads(entry.details) == {"reason": "Not a resident"}
    refused = client.post("/api/auth/login", json={"username": "nope", "password": DEFAULT_PASSWORD})
    assert refused.status_code == 403
    # Without a body, or with an empty reason, rejecting still works.
    other = make_pending()
    assert client.post(f"/api/admin/pending-accounts/{other.id}/reject", headers=h).status_code == 200


def test_approve_and_reject_refusals(client, h, admin):
    active = make_account()
    pending = make_pending()
    for action in ("approve", "reject"):
        assert client.post(f"/api/admin/pending-accounts/999999/{action}", headers=h).status_code == 404
        res = client.post(f"/api/admin/pending-accounts/{active.id}/{action}", headers=h)
        assert res.status_code == 409
    too_long = client.post(
        f"/api/admin/pending-accounts/{pending.id}/reject", json={"reason": "x" * 501}, headers=h
    )
    wrong_type = client.post(
        f"/api/admin/pending-accounts/{pending.id}/reject", json={"reason": 5}, headers=h
    )
    broken = client.post(
        f"/api/admin/pending-accounts/{pending.id}/reject",
        data="{",
        headers={**h, "Content-Type": "application/json"},
    )
    assert (too_long.status_code, wrong_type.status_code, broken.status_code) == (400, 400, 400)
    db.session.expire_all()
    assert db.session.get(Account, pending.id).status == AccountStatus.PENDING
    assert count(AuditEntry) == 0


def test_audit_endpoint_and_unknown_account(client, h, admin):
    user = make_account()
    client.patch(f"/api/admin/{user.id}/active", json={"isActive": False}, headers=h)
    entries = client.get(f"/api/admin/{user.id}/audit", headers=h).json["entries"]
    assert [e["action"] for e in entries] == ["disable"] and entries[0]["actor"] == "boss"
    assert entries[0]["target"] == user.username and entries[0]["at"].endswith("Z")
    assert client.get("/api/admin/999999/audit", headers=h).status_code == 404
    assert client.get("/api/admin/999999", headers=h).status_code == 404


def test_whole_audit_log_newest_first(client, h, admin):
    user, pending = make_account(), make_pending()
    client.patch(f"/api/admin/{user.id}/active", json={"isActive": False}, headers=h)
    client.post(f"/api/admin/pending-accounts/{pending.id}/reject", json={"reason": "Spam"}, headers=h)
    res = client.get("/api/admin/audit?per_page=1", headers=h).json
    assert res["total"] == 2 and len(res["entries"]) == 1
    assert res["entries"][0]["action"] == "reject" and res["entries"][0]["summary"].endswith(": Spam")
    assert (
        client.get("/api/admin/audit?page=2&per_page=1", headers=h).json["entries"][0]["action"] == "disable"
    )
    assert client.get("/api/admin/audit?per_page=0", headers=h).status_code == 400


def test_staff_with_admin_module_is_the_actor_recorded(client, api_headers):
    make_admin()
    helper = make_account(role=RoleId.STAFF, modules=[int(m) for m in ModuleId])
    user = make_account()
    client.patch(f"/api/admin/{user.id}/active", json={"isActive": False}, headers=api_headers(helper))
    assert audit_of(user.id)[0].actor_id == helper.id


JUNK = [None, True, False, 0, -1, 1.5, 2**40, "", "x" * 5000, [], [None], {}, {"a": [1]}]


@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_no_junk_value_gives_a_500_or_a_partial_write(client, h, admin, junk):
    user, pending = make_account(role=RoleId.HOUSEHOLD), make_pending()
    before = count(Account), count(AuditEntry)
    calls = []
    for field in ("FirstName", "LastName", "Email", "Roles", "Access", "Barangay_id", "Username", "Password"):
        calls.append(("post", "/api/admin/create", create_body(**{field: junk})))
    for field in ("Roles", "Access"):
        calls.append(("put", f"/api/admin/{user.id}", {field: junk}))
    calls.append(("patch", f"/api/admin/{user.id}/active", {"isActive": junk}))
    calls.append(("post", f"/api/admin/pending-accounts/{pending.id}/reject", {"reason": junk}))
    calls.append(("post", "/api/admin/create", junk))
    for method, path, body in calls:
        res = getattr(client, method)(path, json=body, headers=h)
        assert res.status_code < 500 and res.is_json, (method, path, body, res.status_code)
        if res.status_code >= 400:
            assert res.json["success"] is False and res.json["message"]
    db.session.expire_all()
    # Only the writes that were valid happened, each with its audit entry.
    accounts, audits = count(Account), count(AuditEntry)
    assert accounts - before[0] <= audits - before[1]
