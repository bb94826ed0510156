"""Barangays as tenants. An Admin of barangay A sees and changes only A's data and
accounts; another barangay's ids are 404; the City Admin sees every barangay, with a filter."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.identity import tenancy
from sibol.models import Account, AccountStatus, Area, Barangay, Machine, RoleId
from sibol.models.household import HouseholdMember, Reward
from tests.factories import DEFAULT_PASSWORD, make_account, make_machine
from tests.factories_household import make_member, make_reward


@pytest.fixture
def world(app):
    """Barangay A (the seeded first one) and B, each with an Admin, a machine, a member, a reward."""
    a = db.session.scalar(select(Barangay).order_by(Barangay.id))
    b = Barangay(name="Barangay Dos")
    db.session.add(b)
    db.session.commit()
    db.session.add(Area(name="Purok 1", barangay_id=b.id))
    db.session.commit()
    admin_a = make_account(role=RoleId.ADMIN, username="admin.a")
    admin_b = make_account(role=RoleId.ADMIN, username="admin.b", barangay_id=b.id)
    city = make_account(role=RoleId.CITY_ADMIN, username="city.admin")
    machine_a = make_machine("Alpha Digester")
    member_a = make_member("Cruz A")
    reward_a = make_reward("Rice A")
    with tenancy.scoped(b.id):
        machine_b = make_machine("Bravo Digester")
        member_b = make_member("Cruz B")
        reward_b = make_reward("Rice B")
    ids = {
        "a": a.id,
        "b": b.id,
        "machine_a": machine_a.id,
        "machine_b": machine_b.id,
        "member_a": member_a.id,
        "member_b": member_b.id,
        "reward_a": reward_a.id,
        "reward_b": reward_b.id,
    }
    return {"ids": ids, "admin_a": admin_a, "admin_b": admin_b, "city": city}


def names(res) -> set[str]:
    return {m["Name"] for m in res.json["data"]}


def test_rows_are_stamped_with_their_barangay(world):
    ids = world["ids"]
    assert world["admin_a"].barangay_id == ids["a"] and world["city"].barangay_id is None
    assert db.session.get(Machine, ids["machine_b"]).barangay_id == ids["b"]
    assert db.session.get(HouseholdMember, ids["member_b"]).barangay_id == ids["b"]
    assert db.session.get(Machine, ids["machine_a"]).barangay_id == ids["a"]


def test_lists_show_only_the_admins_barangay(client, api_headers, world):
    res = client.get("/api/machines?page=1", headers=api_headers(world["admin_a"]))
    assert res.status_code == 200 and names(res) == {"Alpha Digester"} and res.json["total"] == 1
    res = client.get("/api/machines?page=1", headers=api_headers(world["admin_b"]))
    assert names(res) == {"Bravo Digester"}
    # The search index is scoped too: B's machine is not found by name from A.
    res = client.get("/api/machines?q=bravo", headers=api_headers(world["admin_a"]))
    assert res.json["data"] == [] and res.json["total"] == 0
    rewards = client.get("/api/household/rewards", headers=api_headers(world["admin_b"])).get_data(
        as_text=True
    )
    assert "Rice B" in rewards and "Rice A" not in rewards
    accounts = client.get("/api/admin/accounts", headers=api_headers(world["admin_a"])).json
    usernames = {u["Username"] for u in accounts["users"]}
    assert "admin.a" in usernames and "admin.b" not in usernames and "city.admin" not in usernames


def test_another_barangays_ids_are_404_for_reads_and_writes(client, api_headers, world):
    ids, h = world["ids"], api_headers(world["admin_a"])
    assert client.get(f"/api/machines/{ids['machine_b']}", headers=h).status_code == 404
    res = client.put(f"/api/machines/{ids['machine_b']}", headers=h, json={"name": "Taken", "areaId": 1})
    assert res.status_code == 404
    res = client.post(f"/api/machines/{ids['machine_b']}/waste-containers", headers=h, json={})
    assert res.status_code == 404
    assert client.get(f"/api/household/rewards/{ids['reward_b']}/image", headers=h).status_code == 404
    assert client.get(f"/api/admin/{world['admin_b'].id}", headers=h).status_code == 404
    res = client.patch(f"/api/admin/{world['admin_b'].id}/active", headers=h, json={"isActive": False})
    assert res.status_code == 404
    db.session.expire_all()
    assert db.session.get(Machine, ids["machine_b"]).name == "Bravo Digester"
    assert db.session.get(Account, world["admin_b"].id).is_enabled is True
    # Its own rows still work.
    assert client.get(f"/api/machines/{ids['machine_a']}", headers=h).status_code == 200


def test_an_object_loaded_before_the_scope_does_not_leak(client, api_headers, world):
    ids = world["ids"]
    machine_b = db.session.get(Machine, ids["machine_b"])  # in this session's identity map
    assert machine_b is not None
    res = client.get(f"/api/machines/{ids['machine_b']}", headers=api_headers(world["admin_a"]))
    assert res.status_code == 404


def test_a_new_row_goes_to_the_admins_barangay(client, api_headers, world):
    h = api_headers(world["admin_b"])
    area_b = db.session.scalar(select(Area.id).where(Area.barangay_id == world["ids"]["b"]))
    res = client.post("/api/machines", headers=h, json={"name": "Charlie", "areaId": area_b})
    assert res.status_code == 201
    machine = db.session.get(Machine, res.json["data"]["machine_id"])
    assert machine.barangay_id == world["ids"]["b"]
    # A's area is not B's to use: not found, named by its field.
    area_a = db.session.scalar(select(Area.id).where(Area.barangay_id == world["ids"]["a"]))
    res = client.post("/api/machines", headers=h, json={"name": "Delta", "areaId": area_a})
    assert res.status_code == 400 and res.json["field"] == "areaId"


def test_barangay_id_argument_of_another_barangay_is_404_for_an_admin(client, api_headers, world):
    h, ids = api_headers(world["admin_a"]), world["ids"]
    assert client.get(f"/api/machines?page=1&barangay_id={ids['b']}", headers=h).status_code == 404
    assert client.get("/api/machines?page=1&barangay_id=987654", headers=h).status_code == 404
    res = client.get(f"/api/machines?page=1&barangay_id={ids['a']}", headers=h)
    assert res.status_code == 200 and names(res) == {"Alpha Digester"}


def test_city_admin_sees_every_barangay_and_filters_with_barangay_id(client, api_headers, world):
    h, ids = api_headers(world["city"]), world["ids"]
    res = client.get("/api/machines?page=1", headers=h)
    assert names(res) == {"Alpha Digester", "Bravo Digester"}
    res = client.get(f"/api/machines?page=1&barangay_id={ids['b']}", headers=h)
    assert names(res) == {"Bravo Digester"}
    res = client.get("/api/machines?page=1&barangay_id=987654", headers=h)
    assert res.status_code == 404 and res.json["field"] == "barangay_id"
    res = client.get("/api/machines?page=1&barangay_id=abc", headers=h)
    assert res.status_code == 400 and res.json["field"] == "barangay_id"
    assert client.get(f"/api/machines/{ids['machine_b']}", headers=h).status_code == 200
    res = client.get(f"/api/machines/{ids['machine_b']}?barangay_id={ids['a']}", headers=h)
    assert res.status_code == 404


def test_city_admin_writes_need_a_chosen_barangay(client, api_headers, world):
    h, ids = api_headers(world["city"]), world["ids"]
    res = client.post(
        "/api/household/rewards", headers=h, json={"reward": "Soap", "points": 5, "status": "Available"}
    )
    assert res.status_code == 400 and res.json["field"] == "barangayId"
    assert "barangay filter" in res.json["message"]
    assert db.session.scalar(select(func.count()).select_from(Reward).where(Reward.name == "Soap")) == 0
    res = client.post(
        f"/api/household/rewards?barangay_id={ids['b']}",
        headers=h,
        json={"reward": "Soap", "points": 5, "status": "Available"},
    )
    assert res.status_code == 201, res.json
    assert db.session.scalar(select(Reward.barangay_id).where(Reward.name == "Soap")) == ids["b"]
    # Every write to a barangay's modules needs the choice, even where a parent would say.
    area_b = db.session.scalar(select(Area.id).where(Area.barangay_id == ids["b"]))
    res = client.post("/api/machines", headers=h, json={"name": "Echo", "areaId": area_b})
    assert res.status_code == 400 and res.json["field"] == "barangayId"
    res = client.post(
        f"/api/machines?barangay_id={ids['b']}", headers=h, json={"name": "Echo", "areaId": area_b}
    )
    assert res.status_code == 201
    assert db.session.get(Machine, res.json["data"]["machine_id"]).barangay_id == ids["b"]
    # Account administration names its barangay: allowed with every barangay shown.
    staff = {
        "FirstName": "Lea",
        "LastName": "Sy",
        "Email": "lea@example.test",
        "Roles": 2,
        "Barangay_id": ids["b"],
    }
    res = client.post("/api/admin/create", headers=h, json={**staff, "Password": "Str0ng!pass-x"})
    assert res.status_code == 201 and res.json["user"]["Barangay_id"] == ids["b"]


def test_city_admin_page_filter_without_javascript(client, login, world):
    ids = world["ids"]
    login(world["city"])
    html = client.get("/sibol-machines").get_data(as_text=True)
    assert 'id="barangay-filter"' in html and "All barangays" in html
    assert "Alpha Digester" in html and "Bravo Digester" in html
    res = client.post("/city/barangay-filter", data={"barangay_id": ids["b"], "next": "/sibol-machines"})
    assert res.status_code == 302 and res.headers["Location"].endswith("/sibol-machines")
    html = client.get("/sibol-machines").get_data(as_text=True)
    assert "Bravo Digester" in html and "Alpha Digester" not in html
    assert f'<option value="{ids["b"]}" selected>' in html
    assert "Welcome to Barangay Dos, Test" in client.get("/dashboard").get_data(as_text=True)
    assert client.post("/city/barangay-filter", data={"barangay_id": "987654"}).status_code == 404
    client.post("/city/barangay-filter", data={"barangay_id": "", "next": "/sibol-machines"})
    html = client.get("/sibol-machines").get_data(as_text=True)
    assert "Alpha Digester" in html and "Bravo Digester" in html


def test_barangay_admins_see_no_filter_and_cannot_use_city_pages(client, login, api_headers, world):
    login(world["admin_a"])
    html = client.get("/dashboard").get_data(as_text=True)
    assert 'id="barangay-filter"' not in html and "/city/barangays" not in html
    assert client.get("/city/barangays").status_code == 403
    assert client.post("/city/barangay-filter", data={"barangay_id": world["ids"]["b"]}).status_code == 403
    assert client.get("/api/city/barangays", headers=api_headers(world["admin_a"])).status_code == 403
    assert (
        client.post(
            "/api/city/barangays", headers=api_headers(world["admin_a"]), json={"name": "X"}
        ).status_code
        == 403
    )


# Barangay management -----------------------------------------------------------------------------


def test_barangay_crud_api(client, api_headers, world):
    h = api_headers(world["city"])
    res = client.post("/api/city/barangays", headers=h, json={"name": "  Barangay   Tres "})
    assert res.status_code == 201 and res.json["barangay"]["name"] == "Barangay Tres"
    new_id = res.json["barangay"]["id"]
    for body, message in (
        ({"name": ""}, "Name is required."),
        ({}, "Name is required."),
        ({"name": 5}, "Name must be text."),
    ):
        res = client.post("/api/city/barangays", headers=h, json=body)
        assert res.status_code == 400 and res.json["field"] == "name" and res.json["message"] == message
    res = client.post("/api/city/barangays", headers=h, json={"name": "barangay dos"})
    assert res.status_code == 400 and res.json["field"] == "name" and "already exists" in res.json["message"]
    res = client.post("/api/city/barangays", headers=h, json={"name": "x" * 101})
    assert res.status_code == 400 and res.json["field"] == "name"
    res = client.patch(f"/api/city/barangays/{new_id}", headers=h, json={"name": "Barangay Cuatro"})
    assert res.status_code == 200 and res.json["barangay"]["name"] == "Barangay Cuatro"
    res = client.patch(f"/api/city/barangays/{new_id}", headers=h, json={"name": "Barangay Dos"})
    assert res.status_code == 400 and res.json["field"] == "name"
    res = client.patch(f"/api/city/barangays/{new_id}", headers=h, json={"isActive": "no"})
    assert res.status_code == 400 and res.json["field"] == "isActive"
    res = client.patch(f"/api/city/barangays/{new_id}", headers=h, json={"isActive": False})
    assert res.status_code == 200 and res.json["barangay"]["isActive"] is False
    assert client.patch("/api/city/barangays/987654", headers=h, json={"name": "Z"}).status_code == 404
    assert client.get("/api/city/barangays/987654", headers=h).status_code == 404
    listing = client.get("/api/city/barangays?q=dos", headers=h).json
    assert [b["name"] for b in listing["items"]] == ["Barangay Dos"]
    assert listing["items"][0]["admins"] == ["admin.b"] and listing["items"][0]["accounts"] == 1


def test_barangay_pages_show_field_errors(client, login, world):
    login(world["city"])
    html = client.get("/city/barangays").get_data(as_text=True)
    assert "Barangay Dos" in html and 'id="new-barangay"' in html
    res = client.post("/city/barangays", data={"name": ""})
    assert res.status_code == 400
    assert 'id="name-error">Name is required.</p>' in res.get_data(as_text=True)
    res = client.post("/city/barangays", data={"name": "BARANGAY DOS"})
    assert res.status_code == 400 and "already exists" in res.get_data(as_text=True)
    res = client.post("/city/barangays", data={"name": "Barangay Tres"})
    assert res.status_code == 302
    b = world["ids"]["b"]
    res = client.post(f"/city/barangays/{b}/rename", data={"name": ""})
    assert res.status_code == 400 and "Name is required." in res.get_data(as_text=True)
    assert client.post(f"/city/barangays/{b}/rename", data={"name": "Barangay Dos Norte"}).status_code == 302
    assert db.session.get(Barangay, b).name == "Barangay Dos Norte"
    assert client.get("/city/barangays/987654").status_code == 404


def test_deactivation_blocks_sign_in_and_reactivation_restores_it(client, login, api_headers, world):
    member_b = make_account(role=RoleId.STAFF, username="staff.b", barangay_id=world["ids"]["b"])
    h = api_headers(world["city"])
    other = client.application.test_client()
    other.post("/login", data={"username": "staff.b", "password": DEFAULT_PASSWORD})
    assert other.get("/dashboard").status_code == 200
    assert (
        client.patch(
            f"/api/city/barangays/{world['ids']['b']}", headers=h, json={"isActive": False}
        ).status_code
        == 200
    )
    res = client.post("/api/auth/login", json={"username": "staff.b", "password": DEFAULT_PASSWORD})
    assert res.status_code == 403 and "barangay has been deactivated" in res.json["message"]
    res = other.get("/dashboard")  # the signed-in browser is signed out, and told why
    assert res.status_code == 302 and "/login" in res.headers["Location"]
    assert "barangay has been deactivated" in other.get(res.headers["Location"]).get_data(as_text=True)
    # Sign-up no longer offers it, and refuses it.
    assert "Barangay Dos" not in client.get("/signup").get_data(as_text=True)
    assert (
        client.patch(
            f"/api/city/barangays/{world['ids']['b']}", headers=h, json={"isActive": True}
        ).status_code
        == 200
    )
    res = client.post("/api/auth/login", json={"username": member_b.username, "password": DEFAULT_PASSWORD})
    assert res.status_code == 200


def test_appoint_an_existing_account_or_a_new_admin(client, api_headers, world):
    h, b = api_headers(world["city"]), world["ids"]["b"]
    staff_b = make_account(role=RoleId.STAFF, username="staff.b2", barangay_id=b)
    res = client.post(f"/api/city/barangays/{b}/admins", headers=h, json={"accountId": staff_b.id})
    assert res.status_code == 200 and res.json["account"]["Roles"] == int(RoleId.ADMIN)
    assert 6 in res.json["account"]["Access"]
    # An account of another barangay cannot be appointed here: not found.
    res = client.post(f"/api/city/barangays/{b}/admins", headers=h, json={"accountId": world["admin_a"].id})
    assert res.status_code == 404 and res.json["field"] == "accountId"
    res = client.post(
        f"/api/city/barangays/{b}/admins", headers=h, json={"firstName": "Nena", "lastName": "Cruz"}
    )
    assert res.status_code == 400 and res.json["field"] == "email"
    res = client.post(
        f"/api/city/barangays/{b}/admins",
        headers=h,
        json={"firstName": "Nena", "lastName": "Cruz", "email": "nena@example.test"},
    )
    assert res.status_code == 201 and res.json["created"] is True
    created = db.session.scalar(select(Account).where(Account.email == "nena@example.test"))
    assert (created.role_id, created.barangay_id) == (RoleId.ADMIN, b)
    res = client.post(
        f"/api/city/barangays/{b}/admins",
        headers=h,
        json={
            "firstName": "Nena",
            "lastName": "Cruz",
            "email": "admin.a@x.test".replace("admin.a@x.test", world["admin_a"].email),
        },
    )
    assert res.status_code == 409  # e-mails are unique over the installation


def test_appoint_page(client, login, world):
    b = world["ids"]["b"]
    staff_b = make_account(role=RoleId.STAFF, username="staff.b3", barangay_id=b)
    login(world["city"])
    html = client.get(f"/city/barangays/{b}").get_data(as_text=True)
    assert f'<option value="{staff_b.id}">staff.b3' in html and "admin.b" in html
    res = client.post(f"/city/barangays/{b}/admins", data={"firstName": "Nena", "lastName": "", "email": ""})
    assert res.status_code == 400 and 'id="lastName-error">Last name is required.</p>' in res.get_data(
        as_text=True
    )
    assert client.post(f"/city/barangays/{b}/admins", data={"accountId": str(staff_b.id)}).status_code == 302
    db.session.expire_all()
    assert db.session.get(Account, staff_b.id).role_id == RoleId.ADMIN


# Accounts, roles and approvals ---------------------------------------------------------------


def test_only_a_city_admin_gives_the_city_admin_role(client, api_headers, world):
    roles = client.get("/api/admin/roles", headers=api_headers(world["admin_a"])).json["roles"]
    assert 5 not in [r["id"] for r in roles]
    body = {"FirstName": "Ana", "LastName": "Lim", "Email": "ana.lim@example.test", "Roles": 5}
    res = client.post("/api/admin/create", headers=api_headers(world["admin_a"]), json=body)
    assert res.status_code == 400 and res.json["field"] == "Roles"
    res = client.put(
        f"/api/admin/{world['admin_a'].id}", headers=api_headers(world["admin_a"]), json={"Roles": 5}
    )
    assert res.status_code == 400 and res.json["field"] == "Roles"
    roles = client.get("/api/admin/roles", headers=api_headers(world["city"])).json["roles"]
    assert (5, "City Admin") in [(r["id"], r["name"]) for r in roles]
    res = client.post(
        "/api/admin/create", headers=api_headers(world["city"]), json={**body, "Password": "Str0ng!pass-x"}
    )
    assert (
        res.status_code == 201 and res.json["user"]["Roles"] == 5 and res.json["user"]["Barangay_id"] is None
    )


def test_an_admin_cannot_move_an_account_to_another_barangay(client, api_headers, world):
    body = {
        "FirstName": "Ana",
        "LastName": "Lim",
        "Email": "ana.lim@example.test",
        "Roles": 2,
        "Barangay_id": world["ids"]["b"],
    }
    res = client.post("/api/admin/create", headers=api_headers(world["admin_a"]), json=body)
    # Bad input: a barangay id that is not yours is a 404, as one that does not exist.
    assert res.status_code == 404 and res.json["field"] == "Barangay_id"
    missing = client.post(
        "/api/admin/create", headers=api_headers(world["admin_a"]), json={**body, "Barangay_id": 987654}
    )
    assert (
        missing.status_code == 404
        and missing.json["message"].replace("987654", str(world["ids"]["b"])) == (res.json["message"])
    )
    assert db.session.scalar(select(Account).where(Account.email == "ana.lim@example.test")) is None
    barangays = client.get("/api/admin/barangays", headers=api_headers(world["admin_a"])).json
    assert [b["Barangay_Name"] for b in barangays["barangays"]] == ["Barangay Fortune"]


def test_approvals_are_seen_and_decided_by_their_barangays_admin(client, api_headers, world):
    pending = make_account(
        role=RoleId.HOUSEHOLD,
        status=AccountStatus.PENDING,
        username="wait.b",
        password=None,
        barangay_id=world["ids"]["b"],
    )
    listed_a = client.get("/api/admin/pending-accounts", headers=api_headers(world["admin_a"])).get_data(
        as_text=True
    )
    assert "wait.b" not in listed_a
    res = client.post(
        f"/api/admin/pending-accounts/{pending.id}/approve", headers=api_headers(world["admin_a"]), json={}
    )
    assert res.status_code == 404
    listed_city = client.get("/api/admin/pending-accounts", headers=api_headers(world["city"])).get_data(
        as_text=True
    )
    assert "wait.b" in listed_city
    listed_b = client.get("/api/admin/pending-accounts", headers=api_headers(world["admin_b"])).get_data(
        as_text=True
    )
    assert "wait.b" in listed_b
    res = client.post(
        f"/api/admin/pending-accounts/{pending.id}/approve", headers=api_headers(world["admin_b"]), json={}
    )
    assert res.status_code == 200
    db.session.expire_all()
    approved = db.session.get(Account, pending.id)
    assert approved.status == AccountStatus.ACTIVE
    member = db.session.scalar(select(HouseholdMember).where(HouseholdMember.account_id == pending.id))
    assert member is not None and member.barangay_id == world["ids"]["b"]  # its household is B's


def test_city_admin_approves_in_any_barangay_and_the_audit_row_is_that_barangays(client, api_headers, world):
    from sibol.models.admin import AuditEntry

    pending = make_account(
        role=RoleId.STAFF,
        status=AccountStatus.PENDING,
        username="wait.b2",
        password=None,
        barangay_id=world["ids"]["b"],
    )
    res = client.post(
        f"/api/admin/pending-accounts/{pending.id}/approve", headers=api_headers(world["city"]), json={}
    )
    assert res.status_code == 200
    entry = db.session.scalar(select(AuditEntry).where(AuditEntry.target_id == pending.id))
    assert entry.barangay_id == world["ids"]["b"]


# Sign-up -------------------------------------------------------------------------------------------


def test_signup_offers_a_choice_only_with_several_active_barangays(client, app):
    from tests.factories_auth import signup_body

    html = client.get("/signup").get_data(as_text=True)
    assert '<input type="hidden" id="areaId" name="areaId"' in html and "Select a barangay" not in html
    b = Barangay(name="Barangay Dos")
    off = Barangay(name="Barangay Off", is_active=False)
    db.session.add_all([b, off])
    db.session.commit()
    html = client.get("/signup").get_data(as_text=True)
    assert "Select a barangay" in html and "Barangay Dos" in html and "Barangay Off" not in html
    names_api = [x["name"] for x in client.get("/api/auth/barangays").json["barangays"]]
    assert names_api == ["Barangay Dos", "Barangay Fortune"]
    res = client.post("/api/auth/signup", json={**signup_body(), "areaId": off.id, "Area_id": None})
    assert res.status_code == 400 and res.json["field"] == "areaId"
    res = client.post(
        "/api/auth/signup", json={**signup_body(email="dos@example.test"), "areaId": b.id, "Area_id": None}
    )
    assert res.status_code in (200, 201), res.json
    assert db.session.scalar(select(Account.barangay_id).where(Account.email == "dos@example.test")) == b.id


# City dashboard --------------------------------------------------------------------------------


def test_city_dashboard_totals_per_barangay(client, api_headers, login, world):
    with tenancy.scoped(world["ids"]["b"]):
        make_member("Reyes B", points=40)
        make_machine("Bravo Two")
    body = client.get("/api/city/dashboard", headers=api_headers(world["city"])).json
    by_name = {row["barangay"]["name"]: row for row in body["items"]}
    assert by_name["Barangay Dos"]["machines"] == 2 and by_name["Barangay Dos"]["households"] == 2
    assert by_name["Barangay Dos"]["points"] == 140
    assert by_name["Barangay Fortune"]["machines"] == 1 and by_name["Barangay Fortune"]["points"] == 100
    assert body["city"]["machines"] == 3 and body["city"]["households"] == 3 and body["total"] == 2
    assert client.get("/api/city/dashboard", headers=api_headers(world["admin_a"])).status_code == 403
    assert client.get("/api/city/dashboard?page=0", headers=api_headers(world["city"])).status_code == 400
    login(world["city"])
    html = client.get("/city").get_data(as_text=True)
    assert 'data-total="machines">3<' in html and "Barangay Dos" in html


# One barangay -----------------------------------------------------------------------------------


def test_one_barangay_install_looks_as_before(client, login, app):
    admin = make_account(role=RoleId.ADMIN, username="solo.admin")
    login(admin)
    html = client.get("/dashboard").get_data(as_text=True)
    assert 'id="barangay-filter"' not in html and "City Admin" not in html
    assert tenancy.is_multi_barangay() is False
    assert db.session.scalar(select(func.count()).select_from(Barangay)) == 1


def test_a_machines_notices_go_to_its_own_barangay(world):
    from datetime import date

    from sibol.models.machines import WasteContainer
    from sibol.models.telemetry import Notification

    with tenancy.scoped(world["ids"]["b"]):
        db.session.add(
            WasteContainer(
                machine_id=world["ids"]["machine_b"],
                container_no="WC-1",
                area="Package 1",
                status="Full",
                start_date=date(2026, 1, 1),
            )
        )
        db.session.commit()
    told = set(
        db.session.scalars(select(Notification.account_id).where(Notification.kind == "container_full"))
    )
    assert told == {world["admin_b"].id}  # not barangay A's Admin, not the City Admin


def test_city_admin_cannot_disable_a_barangays_last_admin(client, api_headers, world):
    res = client.patch(
        f"/api/admin/{world['admin_b'].id}/active",
        headers=api_headers(world["city"]),
        json={"isActive": False},
    )
    assert res.status_code == 409  # admin.a of barangay A does not count for B
    make_account(role=RoleId.ADMIN, username="admin.b2", barangay_id=world["ids"]["b"])
    res = client.patch(
        f"/api/admin/{world['admin_b'].id}/active",
        headers=api_headers(world["city"]),
        json={"isActive": False},
    )
    assert res.status_code == 200
