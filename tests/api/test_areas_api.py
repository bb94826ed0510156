"""Areas (puroks) through /api/machines/areas: a barangay's Admin lists, adds, renames, retires
and restores them; a retired area takes no new machine or schedule but keeps its history; each
barangay's areas are its own; a barangay the City Admin creates starts with one area."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import Area, Barangay, RoleId
from tests.factories import make_account, make_machine
from tests.factories_household import make_schedule

pytestmark = pytest.mark.usefixtures("fresh_identity")

AREAS = "/api/machines/areas"


@pytest.fixture
def admin(app):
    return make_account(role=RoleId.ADMIN, username="area.admin")


@pytest.fixture
def h(api_headers, admin) -> dict:
    return api_headers(admin)


def area_id(name: str) -> int:
    return db.session.scalar(select(Area.id).where(Area.name == name))


def listed(client, headers, query: str = "") -> list[str]:
    return [a["Area_Name"] for a in client.get(AREAS + query, headers=headers).json]


def test_an_admin_adds_an_area_and_every_list_offers_it(client, h, api_headers):
    res = client.post(AREAS, json={"name": "  Purok   Riverside "}, headers=h)
    assert res.status_code == 201, res.json
    data = res.json["data"]
    assert data["Area_Name"] == "Purok Riverside" and data["retired"] is False and data["retiredAt"] is None
    assert "Purok Riverside" in listed(client, h)
    # staff see it in the machines tab's list and can add a machine there
    staff = make_account(role=RoleId.STAFF)
    from_staff = client.post("/api/machines", json={"areaId": data["Area_id"]}, headers=api_headers(staff))
    assert from_staff.status_code == 201 and from_staff.json["data"]["Area_Name"] == "Purok Riverside"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "Area name is required."),
        ({"name": "   "}, "Area name is required."),
        ({"name": None}, "Area name is required."),
        ({"name": 7}, "Area name must be text."),
        ({"name": ["Purok 9"]}, "Area name must be text."),
        ({"name": "x" * 101}, "Area name must be at most 100 characters."),
    ],
)
def test_a_bad_name_is_a_400_naming_it_and_adds_nothing(client, h, body, message):
    before = listed(client, h, "?all=1")
    res = client.post(AREAS, json=body, headers=h)
    assert res.status_code == 400 and res.json["field"] == "name" and res.json["message"] == message
    assert listed(client, h, "?all=1") == before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"name": "purok 1"}, "An area named purok 1 already exists."),
        ({"Area_Name": "PUROK 2"}, "An area named PUROK 2 already exists."),
    ],
)
def test_a_taken_name_is_a_409_naming_it_and_adds_nothing(client, h, body, message):
    """As a taken username is: the request is well formed, the name is someone else's."""
    before = listed(client, h, "?all=1")
    res = client.post(AREAS, json=body, headers=h)
    assert res.status_code == 409 and res.json["field"] == "name" and res.json["message"] == message
    assert res.json["code"] == "conflict"
    assert listed(client, h, "?all=1") == before


def test_rename_shows_everywhere_the_area_is_named(client, h):
    machine = make_machine("Rename Digester", area="Purok 3")
    res = client.patch(f"{AREAS}/{area_id('Purok 3')}", json={"name": "Purok Tres"}, headers=h)
    assert res.status_code == 200 and res.json["data"]["Area_Name"] == "Purok Tres"
    assert client.get(f"/api/machines/{machine.id}", headers=h).json["data"]["Area_Name"] == "Purok Tres"
    # renaming to its own name in another case is allowed; to another area's name is not
    assert (
        client.patch(f"{AREAS}/{area_id('Purok Tres')}", json={"name": "PUROK TRES"}, headers=h).status_code
        == 200
    )
    taken = client.patch(f"{AREAS}/{area_id('PUROK TRES')}", json={"name": "Purok 4"}, headers=h)
    assert taken.status_code == 409 and taken.json["field"] == "name"


@pytest.mark.parametrize(
    ("body", "field"),
    [({}, "name"), ({"retired": "yes"}, "retired"), ({"retired": 1}, "retired"), ({"name": ""}, "name")],
)
def test_a_bad_change_is_a_400_naming_the_field(client, h, body, field):
    res = client.patch(f"{AREAS}/{area_id('Purok 2')}", json=body, headers=h)
    assert res.status_code == 400 and res.json["field"] == field
    assert "Purok 2" in listed(client, h)


def test_unknown_and_malformed_ids_are_404(client, h):
    for path in ("/987654", "/abc", "/" + "9" * 400, "/-1"):
        assert client.patch(AREAS + path, json={"name": "X"}, headers=h).status_code == 404, path


def test_a_retired_area_takes_no_new_machine_but_keeps_its_own(client, h):
    kept = make_machine("Kept Digester", area="Purok 4")
    other = make_machine("Other Digester", area="Purok 5")
    purok4 = area_id("Purok 4")
    res = client.patch(f"{AREAS}/{purok4}", json={"retired": True}, headers=h)
    assert res.status_code == 200 and res.json["data"]["retired"] is True and res.json["data"]["retiredAt"]
    # gone from the options of new work, listed with all=1
    assert "Purok 4" not in listed(client, h)
    every = {a["Area_Name"]: a for a in client.get(f"{AREAS}?all=1", headers=h).json}
    assert every["Purok 4"]["retired"] is True and every["Purok 5"]["retired"] is False
    # no new machine there, no machine moved in
    refused = client.post("/api/machines", json={"areaId": purok4}, headers=h)
    assert refused.status_code == 400 and refused.json["field"] == "areaId"
    assert "retired" in refused.json["message"]
    moved = client.put(f"/api/machines/{other.id}", json={"name": "Other", "areaId": purok4}, headers=h)
    assert moved.status_code == 400 and moved.json["field"] == "areaId"
    # its machine stays, shows its area, and may still be edited in place
    shown = client.get(f"/api/machines/{kept.id}", headers=h).json["data"]
    assert shown["Area_id"] == purok4 and shown["Area_Name"] == "Purok 4"
    edited = client.put(f"/api/machines/{kept.id}", json={"name": "Kept Still", "areaId": purok4}, headers=h)
    assert edited.status_code == 200 and edited.json["data"]["Name"] == "Kept Still"
    assert "Kept Still" in {m["Name"] for m in client.get("/api/machines?q=Kept", headers=h).json["data"]}
    # restored, it takes machines again
    assert (
        client.patch(f"{AREAS}/{purok4}", json={"retired": False}, headers=h).json["data"]["retired"] is False
    )
    assert client.post("/api/machines", json={"areaId": purok4}, headers=h).status_code == 201


def test_a_retired_area_takes_no_new_schedule_but_old_ones_keep_it(client, h):
    old = make_schedule(areas=("Purok 5",))
    client.patch(f"{AREAS}/{area_id('Purok 5')}", json={"retired": True}, headers=h)
    body = {
        "maintenancePerson": "Juan",
        "collectorContact": "0917 123 4567",
        "areas": ["Purok 1", "purok 5"],
        "dateOfCollection": "2030-01-15",
    }
    refused = client.post("/api/household/schedules", json=body, headers=h)
    assert refused.status_code == 400 and refused.json["field"] == "areas"
    assert "purok 5" in refused.json["message"]
    # the old schedule keeps its chip, and keeps it through an edit
    kept = client.put(
        f"/api/household/schedules/{old.id}",
        json={"areas": ["Purok 5", "Purok 1"], "status": "Pending"},
        headers=h,
    )
    assert kept.status_code == 200, kept.json
    assert (
        client.post("/api/household/schedules", json={**body, "areas": ["Purok 1"]}, headers=h).status_code
        == 201
    )


@pytest.mark.parametrize("role", [RoleId.STAFF, RoleId.OPERATOR, RoleId.HOUSEHOLD])
def test_only_an_admin_manages_areas(client, api_headers, role):
    headers = api_headers(make_account(role=role))
    assert client.post(AREAS, json={"name": "Purok 9"}, headers=headers).status_code == 403
    assert (
        client.patch(f"{AREAS}/{area_id('Purok 1')}", json={"retired": True}, headers=headers).status_code
        == 403
    )
    assert area_id("Purok 9") is None and db.session.get(Area, area_id("Purok 1")).retired_at is None


@pytest.fixture
def two(app):
    """Barangay B with an Admin and an area of the same name as one of A's."""
    b = Barangay(name="Barangay Dos")
    db.session.add(b)
    db.session.commit()
    db.session.add(Area(name="Purok 1", barangay_id=b.id))
    db.session.commit()
    return b


def test_each_barangays_admin_manages_its_own_areas_only(client, api_headers, admin, two):
    admin_b = make_account(role=RoleId.ADMIN, username="area.admin.b", barangay_id=two.id)
    a_headers, b_headers = api_headers(admin), api_headers(admin_b)
    b_purok = db.session.scalar(select(Area.id).where(Area.barangay_id == two.id))
    assert listed(client, b_headers) == ["Purok 1"]
    # A's Admin cannot see, rename or retire B's area: 404, nothing changes
    assert client.patch(f"{AREAS}/{b_purok}", json={"name": "Taken"}, headers=a_headers).status_code == 404
    assert client.patch(f"{AREAS}/{b_purok}", json={"retired": True}, headers=a_headers).status_code == 404
    assert listed(client, b_headers) == ["Purok 1"]
    # names are unique per barangay: B may have a "Purok 2" as A does
    res = client.post(AREAS, json={"name": "Purok 2"}, headers=b_headers)
    assert res.status_code == 201 and db.session.get(Area, res.json["data"]["Area_id"]).barangay_id == two.id
    assert listed(client, b_headers) == ["Purok 1", "Purok 2"]
    # and a machine of A cannot be put in B's area
    machine = make_machine("Alpha")
    moved = client.put(
        f"/api/machines/{machine.id}", json={"name": "Alpha", "areaId": b_purok}, headers=a_headers
    )
    assert moved.status_code == 400 and moved.json["field"] == "areaId"


def test_the_city_admin_chooses_the_barangay_of_a_new_area(client, api_headers, two):
    headers = api_headers(make_account(role=RoleId.CITY_ADMIN, username="area.city"))
    unscoped = client.post(AREAS, json={"name": "Purok Sur"}, headers=headers)
    assert unscoped.status_code == 400 and unscoped.json["field"] == "barangayId"
    res = client.post(f"{AREAS}?barangay_id={two.id}", json={"name": "Purok Sur"}, headers=headers)
    assert res.status_code == 201
    assert db.session.get(Area, res.json["data"]["Area_id"]).barangay_id == two.id


def test_a_new_barangay_starts_with_one_area_its_admin_renames_and_uses(client, api_headers):
    city = api_headers(make_account(role=RoleId.CITY_ADMIN, username="area.city2"))
    created = client.post("/api/city/barangays", json={"name": "Barangay Bago"}, headers=city)
    assert created.status_code == 201
    new_id = created.json["barangay"]["id"]
    new_admin = make_account(role=RoleId.ADMIN, username="bago.admin", barangay_id=new_id)
    headers = api_headers(new_admin)
    areas = client.get(AREAS, headers=headers).json
    assert [a["Area_Name"] for a in areas] == ["Purok 1"]
    renamed = client.patch(f"{AREAS}/{areas[0]['Area_id']}", json={"name": "Purok Centro"}, headers=headers)
    assert renamed.status_code == 200
    staff = api_headers(make_account(role=RoleId.STAFF, username="bago.staff", barangay_id=new_id))
    machine = client.post("/api/machines", json={"areaId": areas[0]["Area_id"]}, headers=staff)
    assert machine.status_code == 201 and machine.json["data"]["Area_Name"] == "Purok Centro"
