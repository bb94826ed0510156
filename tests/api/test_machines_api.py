"""/api/machines*: list (plain and paged), search, create, update, options, rows per machine."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import Machine, RoleId
from sibol.models.machines import ChemicalAdditive, MachineTerm, WasteContainer
from tests.factories import make_account, make_machine
from tests.factories_machines import area_id, make_additive, make_container, status_id


def machine_count() -> int:
    return db.session.scalar(select(func.count()).select_from(Machine))


# Access ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/machines"),
        ("post", "/api/machines"),
        ("put", "/api/machines/1"),
        ("get", "/api/machines/areas"),
        ("get", "/api/machines/statuses"),
        ("get", "/api/machines/1/chemical-additives"),
        ("post", "/api/machines/1/waste-containers"),
    ],
)
def test_machine_calls_need_sign_in_and_module_2(client, api_headers, method, path):
    assert getattr(client, method)(path, json={}).status_code == 401
    household = make_account(role=RoleId.HOUSEHOLD)  # modules 1, 4, 5
    res = getattr(client, method)(path, json={}, headers=api_headers(household))
    assert res.status_code == 403 and res.json["module"] == 2


def test_the_session_cookie_works_too(client, login, staff):
    make_machine("Cookie Machine")
    login(staff)
    assert [m["Name"] for m in client.get("/api/machines").json] == ["Cookie Machine"]


# Listing and searching -------------------------------------------------------------------------


def test_plain_list_has_the_spec_fields(client, staff_headers):
    machine = make_machine("SIBOL Machine 1", area="Purok 2", status_id=status_id("Active"))
    make_machine("No status one", area="Purok 3")
    res = client.get("/api/machines", headers=staff_headers)
    assert res.status_code == 200
    assert res.json[0] == {
        "machine_id": machine.id,
        "Name": "SIBOL Machine 1",
        "Area_id": area_id("Purok 2"),
        "Area_Name": "Purok 2",
        "status_id": status_id("Active"),
        "status_name": "Active",
    }
    assert res.json[1]["status_id"] is None and res.json[1]["status_name"] is None


def test_paged_list_answers_data_total_page_per_page(client, staff_headers):
    for n in range(1, 13):
        make_machine(f"Pump {n}")
    res = client.get("/api/machines?page=2&per_page=5", headers=staff_headers)
    assert res.json["total"] == 12 and res.json["page"] == 2 and res.json["per_page"] == 5
    assert [m["Name"] for m in res.json["data"]] == [f"Pump {n}" for n in range(6, 11)]
    last = client.get("/api/machines?page=3&per_page=5", headers=staff_headers).json
    assert [m["Name"] for m in last["data"]] == ["Pump 11", "Pump 12"]
    beyond = client.get("/api/machines?page=9&per_page=5", headers=staff_headers).json
    assert beyond["data"] == [] and beyond["total"] == 12


def test_search_is_case_insensitive_on_name_words_and_area_names(client, staff_headers):
    make_machine("SIBOL Digester North", area="Purok 1")
    make_machine("Composter South", area="Purok 2")
    make_machine("digester east", area="Purok 3")

    def names(q):
        res = client.get("/api/machines", query_string={"q": q}, headers=staff_headers)
        assert res.status_code == 200
        return [m["Name"] for m in res.json["data"]]

    assert names("DIGESTER") == ["SIBOL Digester North", "digester east"]
    assert names("sibol dig") == ["SIBOL Digester North"]
    assert names("  south ") == ["Composter South"]
    assert names("purok 2") == ["Composter South"]  # area name
    assert names("rok 3") == ["digester east"]  # area names match anywhere
    assert names("xyz") == []
    assert names("%") == [] and names("_") == []  # wildcards are plain characters
    assert len(names("")) == 3


def test_search_follows_renames(client, staff_headers):
    machine = make_machine("Old Name")
    client.put(
        f"/api/machines/{machine.id}",
        json={"name": "Fresh Title", "areaId": area_id()},
        headers=staff_headers,
    )
    assert client.get("/api/machines?q=old", headers=staff_headers).json["total"] == 0
    assert client.get("/api/machines?q=title", headers=staff_headers).json["total"] == 1


def test_type_ahead_can_skip_the_total(client, staff_headers):
    for n in range(3):
        make_machine(f"Mixer {n}")
    res = client.get("/api/machines?q=mix&per_page=2&count=0", headers=staff_headers)
    assert res.json["total"] is None and len(res.json["data"]) == 2
    make_machine("Mixer Zed")
    make_machine("Big Mixer Alpha")
    res = client.get("/api/machines?q=mixer&per_page=5&count=0", headers=staff_headers)
    # Type-ahead order: alphabetical by the matching words ("mixer 0" < ... < "mixer zed").
    assert [m["Name"] for m in res.json["data"]] == [
        "Mixer 0",
        "Mixer 1",
        "Mixer 2",
        "Big Mixer Alpha",
        "Mixer Zed",
    ]


@pytest.mark.parametrize("query", ["page=0", "page=x", "per_page=0", "per_page=101", "per_page=abc"])
def test_bad_paging_is_400(client, staff_headers, query):
    res = client.get(f"/api/machines?{query}", headers=staff_headers)
    assert res.status_code == 400 and res.json["message"]


def test_areas_and_statuses_options(client, staff_headers):
    areas = client.get("/api/machines/areas", headers=staff_headers).json
    assert [a["Area_Name"] for a in areas] == ["Purok 1", "Purok 2", "Purok 3", "Purok 4", "Purok 5"]
    assert set(areas[0]) == {"Area_id", "Area_Name"}
    statuses = client.get("/api/machines/statuses", headers=staff_headers).json
    assert [s["Status"] for s in statuses] == ["Active", "Inactive", "Under Maintenance", "Offline"]
    assert set(statuses[0]) == {"Mach_status_id", "Status"}


def test_show_machine(client, staff_headers):
    machine = make_machine("Shown")
    assert client.get(f"/api/machines/{machine.id}", headers=staff_headers).json["data"]["Name"] == "Shown"


# Creating --------------------------------------------------------------------------------------


def test_create_generates_the_name_and_has_no_status(client, staff_headers):
    res = client.post("/api/machines", json={"areaId": area_id("Purok 3")}, headers=staff_headers)
    assert res.status_code == 201 and res.json["message"] == "Machine created successfully!"
    data = res.json["data"]
    assert data["Name"] == f"SIBOL Machine {data['machine_id']}"
    assert data["Area_Name"] == "Purok 3" and data["status_id"] is None
    found = client.get("/api/machines?q=sibol machine", headers=staff_headers).json["data"]
    assert [m["machine_id"] for m in found] == [data["machine_id"]]


def test_create_with_status_and_name(client, staff_headers):
    res = client.post(
        "/api/machines",
        json={"areaId": str(area_id()), "status": status_id("Offline"), "name": "  Named   one "},
        headers=staff_headers,
    )
    assert res.status_code == 201
    assert res.json["data"]["Name"] == "Named one" and res.json["data"]["status_name"] == "Offline"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "areaId"),
        ({"areaId": None}, "areaId"),
        ({"areaId": 999}, "areaId"),
        ({"areaId": "two"}, "areaId"),
        ({"areaId": True}, "areaId"),
        ({"areaId": 1.5}, "areaId"),
        ({"areaId": [1]}, "areaId"),
        ({"areaId": 10**30}, "areaId"),
        ({"areaId": 1, "status": 999}, "status"),
        ({"areaId": 1, "status": "x"}, "status"),
        ({"areaId": 1, "name": "x" * 101}, "name"),
        ({"areaId": 1, "name": 5}, "name"),
    ],
)
def test_create_refuses_bad_input_and_writes_nothing(client, staff_headers, body, field):
    body = {k: area_id() if type(v) is int and v == 1 and k == "areaId" else v for k, v in body.items()}
    res = client.post("/api/machines", json=body, headers=staff_headers)
    assert res.status_code == 400 and res.json["field"] == field and res.json["message"]
    assert machine_count() == 0


@pytest.mark.parametrize(
    ("data", "content_type", "status"),
    [
        ("{not json", "application/json", 400),
        ("[1, 2]", "application/json", 400),
        ("", "application/json", 400),
        ("areaId=1", "application/x-www-form-urlencoded", 415),
    ],
)
def test_create_refuses_malformed_bodies(client, staff_headers, data, content_type, status):
    res = client.post("/api/machines", data=data, content_type=content_type, headers=staff_headers)
    assert res.status_code == status and res.is_json
    assert machine_count() == 0


# Updating --------------------------------------------------------------------------------------


def test_update_name_area_and_status_then_clear_status(client, staff_headers):
    machine = make_machine("Before", area="Purok 1")
    res = client.put(
        f"/api/machines/{machine.id}",
        headers=staff_headers,
        json={"name": "After", "areaId": area_id("Purok 4"), "status": status_id("Inactive")},
    )
    assert res.status_code == 200 and res.json["message"] == "Machine updated successfully!"
    assert res.json["data"] | {} == {
        "machine_id": machine.id,
        "Name": "After",
        "Area_id": area_id("Purok 4"),
        "Area_Name": "Purok 4",
        "status_id": status_id("Inactive"),
        "status_name": "Inactive",
    }
    res = client.put(
        f"/api/machines/{machine.id}",
        headers=staff_headers,
        json={"name": "After", "areaId": area_id("Purok 4"), "status": None},
    )
    assert res.json["data"]["status_id"] is None
    res = client.put(
        f"/api/machines/{machine.id}",
        headers=staff_headers,
        json={"name": "After", "areaId": area_id("Purok 4"), "status": ""},
    )
    assert res.json["data"]["status_id"] is None


def test_update_blank_name_keeps_the_old_one_and_absent_status_clears_it(client, staff_headers):
    machine = make_machine("Keeper", status_id=status_id("Active"))
    res = client.put(
        f"/api/machines/{machine.id}",
        json={"name": "   ", "areaId": area_id("Purok 2")},
        headers=staff_headers,
    )
    assert res.json["data"]["Name"] == "Keeper" and res.json["data"]["status_name"] is None
    assert res.json["data"]["Area_Name"] == "Purok 2"


@pytest.mark.parametrize("machine_id", ["abc", "0", "-1", "999999", "1.5", "99999999999999999999"])
def test_update_unknown_or_malformed_id_is_404(client, staff_headers, machine_id):
    make_machine("Exists")
    res = client.put(f"/api/machines/{machine_id}", json={"areaId": 1}, headers=staff_headers)
    assert res.status_code == 404 and res.is_json
    assert client.get(f"/api/machines/{machine_id}", headers=staff_headers).status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "New"}, "areaId"),
        ({"name": "New", "areaId": 999}, "areaId"),
        ({"name": "New", "areaId": 1, "status": 999}, "status"),
        ({"name": "N" * 101, "areaId": 1}, "name"),
        ({"name": ["x"], "areaId": 1}, "name"),
    ],
)
def test_update_refuses_bad_input_and_changes_nothing(client, staff_headers, body, field):
    machine = make_machine("Untouched", area="Purok 5", status_id=status_id("Active"))
    body = {k: area_id() if type(v) is int and v == 1 and k == "areaId" else v for k, v in body.items()}
    res = client.put(f"/api/machines/{machine.id}", json=body, headers=staff_headers)
    assert res.status_code == 400 and res.json["field"] == field
    db.session.expire_all()
    again = db.session.get(Machine, machine.id)
    assert (again.name, again.area.name, again.status.name) == ("Untouched", "Purok 5", "Active")


def test_update_malformed_json_is_400(client, staff_headers):
    machine = make_machine("Same")
    res = client.put(
        f"/api/machines/{machine.id}", data="{", content_type="application/json", headers=staff_headers
    )
    assert res.status_code == 400 and res.json["field"] == "body"


def test_terms_are_written_with_the_machine(app):
    machine = make_machine("Alpha  Beta Gamma")
    terms = set(db.session.scalars(select(MachineTerm.term).where(MachineTerm.machine_id == machine.id)))
    assert terms == {"alpha beta gamma", "beta gamma", "gamma"}


# Chemical additives and waste containers -------------------------------------------------------


def test_rows_belong_to_their_machine(client, staff_headers):
    one, two = make_machine("One"), make_machine("Two")
    make_additive(one, chemical_input="Lime")
    make_additive(two, chemical_input="Urea")
    make_container(two, container_no="WC-2")
    assert [
        r["chemicalInput"]
        for r in client.get(f"/api/machines/{one.id}/chemical-additives", headers=staff_headers).json
    ] == ["Lime"]
    rows = client.get(f"/api/machines/{two.id}/waste-containers", headers=staff_headers).json
    assert [(r["wasteContainerNo"], r["status"]) for r in rows] == [("WC-2", "Full")]
    assert client.get(f"/api/machines/{one.id}/waste-containers", headers=staff_headers).json == []


def test_add_chemical_additive_and_waste_container(client, staff_headers):
    machine = make_machine("Host")
    res = client.post(
        f"/api/machines/{machine.id}/chemical-additives",
        headers=staff_headers,
        json={
            "area": "Package 3",
            "startDate": "2026-02-01",
            "chemicalInput": "Urea",
            "value": "3",
            "units": "kg",
            "personInCharge": "Ana",
        },
    )
    assert res.status_code == 201
    assert res.json["data"] | {"time": "x"} == {
        "id": res.json["data"]["id"],
        "machineId": machine.id,
        "chemicalInput": "Urea",
        "stage": "",  # The area is no longer put in the Stage column
        "value": "3",
        "units": "kg",
        "area": "Package 3",
        "date": "2026-02-01",
        "time": "x",
        "personInCharge": "Ana",
    }
    res = client.post(
        f"/api/machines/{machine.id}/waste-containers",
        headers=staff_headers,
        json={"area": "Package 4", "startDate": "2026-02-02"},
    )
    assert res.status_code == 201
    assert (
        res.json["data"]["status"] == "Not Full"
        and res.json["data"]["wasteContainerNo"] == f"WC-{machine.id:03d}-01"
    )


@pytest.mark.parametrize(
    ("kind", "body", "field"),
    [
        ("chemical-additives", {"startDate": "2026-01-01"}, "area"),
        ("chemical-additives", {"area": "Purok 1", "startDate": "2026-01-01"}, "area"),
        ("chemical-additives", {"area": "Package 1"}, "startDate"),
        ("chemical-additives", {"area": "Package 1", "startDate": "2026-13-01"}, "startDate"),
        (
            "chemical-additives",
            {"area": "Package 1", "startDate": "2026-01-01", "chemicalInput": "c" * 101},
            "chemicalInput",
        ),
        ("chemical-additives", {"area": "Package 1", "startDate": "2026-01-01", "value": 5}, "value"),
        ("waste-containers", {"area": "Package 1", "startDate": "yesterday"}, "startDate"),
        ("waste-containers", {"area": "Package 9", "startDate": "2026-01-01"}, "area"),
        ("waste-containers", {"area": "Package 1", "startDate": "2026-01-01", "status": "Half"}, "status"),
    ],
)
def test_row_forms_refuse_bad_input(client, staff_headers, kind, body, field):
    machine = make_machine("Host")
    res = client.post(f"/api/machines/{machine.id}/{kind}", json=body, headers=staff_headers)
    assert res.status_code == 400 and res.json["field"] == field
    assert db.session.scalar(select(func.count()).select_from(ChemicalAdditive)) == 0
    assert db.session.scalar(select(func.count()).select_from(WasteContainer)) == 0


def test_rows_of_an_unknown_machine_are_404(client, staff_headers):
    assert client.get("/api/machines/77/chemical-additives", headers=staff_headers).status_code == 404
    res = client.post(
        "/api/machines/x/waste-containers",
        json={"area": "Package 1", "startDate": "2026-01-01"},
        headers=staff_headers,
    )
    assert res.status_code == 404
