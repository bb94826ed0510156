"""The spec's client's household Schedule tab against /api/schedules, /api/areas, /api/operators:
the database-style names it reads and writes, with our validation, permissions and tenancy."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.identity import tenancy
from sibol.models import Area, Barangay, CollectionArea, CollectionSchedule, RoleId, utcnow
from tests.factories import make_account
from tests.factories_household import make_schedule
from tests.factories_machines import area_id

CLIENT_FIELDS = (
    "Schedule_id",
    "Account_id",
    "Collector",
    "Contact",
    "Area",
    "sched_stat_id",
    "Date_of_collection",
)


@pytest.fixture
def operator():
    return make_account(role=RoleId.OPERATOR, first_name="Maria", last_name="Santos", username="maria.santos")


def the_clients_create(operator, **changes) -> dict:
    """What the client's Add Schedule sends: its operator picker's Account_id, its area picker's ids."""
    body = {
        "Account_id": operator.id,
        "Contact": "09171234567",
        "Area": [area_id("Purok 2"), area_id("Purok 1")],
        "sched_stat_id": 1,
        "Date_of_collection": "2026-03-01",
    }
    body.update(changes)
    return body


def schedule_count() -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(CollectionSchedule))


# Reading ----------------------------------------------------------------------------------------


def test_rows_carry_the_clients_names_beside_ours(client, staff_headers, operator):
    made = client.post("/api/schedules", json=the_clients_create(operator), headers=staff_headers)
    assert made.status_code == 201, made.json
    make_schedule(
        areas=("Package 4", "Purok 3"),
        person="Jose Rizal",
        contact="jose@example.test",
        when=date(2026, 1, 1),
        status="Collected",
        grams=2500,
    )
    rows = client.get("/api/schedules", headers=staff_headers).json
    assert [{k: r[k] for k in CLIENT_FIELDS} for r in rows] == [
        {
            "Schedule_id": made.json["Schedule_id"],
            "Account_id": operator.id,
            "Collector": "Maria Santos",
            "Contact": "09171234567",
            "Area": [area_id("Purok 2"), area_id("Purok 1")],
            "sched_stat_id": 1,
            "Date_of_collection": "2026-03-01",
        },
        {
            "Schedule_id": rows[1]["id"],
            "Account_id": None,  # written on our own form: a name, no account
            "Collector": "Jose Rizal",
            "Contact": "jose@example.test",
            "Area": ["Package 4", "Purok 3"],  # "Package 4" is no area of the barangay: names
            "sched_stat_id": 3,
            "Date_of_collection": "2026-01-01",
        },
    ]
    assert [r["AreaName"] for r in rows] == ["Purok 2, Purok 1", "Package 4, Purok 3"]
    # Ours are still there.
    assert (rows[0]["maintenancePerson"], rows[0]["area"], rows[0]["status"]) == (
        "Maria Santos",
        "Purok 2, Purok 1",
        "Collecting",
    )
    assert (rows[1]["collectorContact"], rows[1]["dateOfCollection"], rows[1]["totalWaste"]) == (
        "jose@example.test",
        "2026-01-01",
        2.5,
    )
    # The client maps a row's area ids through /api/areas.
    names = {a["Area_id"]: a["Area_Name"] for a in client.get("/api/areas", headers=staff_headers).json}
    assert [names[i] for i in rows[0]["Area"]] == ["Purok 2", "Purok 1"]


def test_a_mobile_written_otherwise_reads_as_09_digits(client, staff_headers):
    make_schedule(contact="+63 917 111 2222")
    make_schedule(contact="(0917) 333-4444", when=date(2026, 1, 2))  # earlier: listed second
    assert [r["Contact"] for r in client.get("/api/schedules", headers=staff_headers).json] == [
        "09171112222",
        "09173334444",
    ]


def test_areas_are_the_barangays_areas_with_their_ids(client, staff_headers):
    make_schedule(areas=("purok 1", "Purok 2"))
    make_schedule(areas=("Purok 1",))
    areas = client.get("/api/areas", headers=staff_headers).json
    assert [(a["Area_id"], a["Area_Name"], a["name"], a["schedules"]) for a in areas] == [
        (area_id(f"Purok {n}"), f"Purok {n}", f"Purok {n}", {1: 2, 2: 1}.get(n, 0)) for n in range(1, 6)
    ]


def test_a_retired_area_leaves_the_clients_area_picker(client, staff_headers):
    retired = db.session.get(Area, area_id("Purok 3"))
    retired.retired_at = utcnow()
    db.session.commit()
    names = [a["Area_Name"] for a in client.get("/api/areas", headers=staff_headers).json]
    assert names == ["Purok 1", "Purok 2", "Purok 4", "Purok 5"]


def test_operators_are_the_active_operator_accounts(client, staff_headers, operator):
    make_account(
        role=RoleId.OPERATOR, first_name="Ana", last_name="Cruz", username="ana", contact_number="09181112222"
    )
    make_account(role=RoleId.OPERATOR, username="off", is_enabled=False)
    make_account(role=RoleId.OPERATOR, username="waiting", status="pending")
    make_account(role=RoleId.STAFF, username="not.an.operator")
    client.post(
        "/api/schedules", json=the_clients_create(operator, Contact="0917 555 6666"), headers=staff_headers
    )
    found = client.get("/api/operators", headers=staff_headers).json
    assert [
        (o["Account_id"] is not None, o["Username"], o["name"], o["contact"], o["schedules"]) for o in found
    ] == [
        (True, "ana", "Ana Cruz", "09181112222", 0),
        (True, "maria.santos", "Maria Santos", "09175556666", 1),
    ]
    assert found[1]["Account_id"] == operator.id


# Writing ----------------------------------------------------------------------------------------


def test_add_schedule_as_the_client_sends_it(client, staff_headers, operator):
    res = client.post("/api/schedules", json=the_clients_create(operator), headers=staff_headers)
    assert res.status_code == 201 and res.json["success"] is True
    assert res.json["message"] == "Collection schedule saved."
    saved = db.session.get(CollectionSchedule, res.json["Schedule_id"])
    assert (saved.collector_id, saved.maintenance_person, saved.collector_contact) == (
        operator.id,
        "Maria Santos",
        "09171234567",
    )
    assert (saved.area_names, saved.status, saved.collection_date) == (
        ["Purok 2", "Purok 1"],
        "Collecting",
        date(2026, 3, 1),
    )
    assert res.json["schedule"]["sched_stat_id"] == 1
    # Without sched_stat_id: Pending.
    pending = client.post(
        "/api/schedules", json=the_clients_create(operator, sched_stat_id=None), headers=staff_headers
    )
    assert pending.status_code == 201 and pending.json["schedule"]["sched_stat_id"] == 2


@pytest.mark.parametrize(
    ("area", "names"),
    [
        (lambda: area_id("Purok 3"), ["Purok 3"]),
        (lambda: f"{area_id('Purok 3')},{area_id('Purok 4')}", ["Purok 3", "Purok 4"]),
        (lambda: str(area_id("Purok 5")), ["Purok 5"]),
        (lambda: "purok 3", ["Purok 3"]),
        (lambda: ["Purok 4", "PUROK 5"], ["Purok 4", "Purok 5"]),
        (lambda: [str(area_id("Purok 1")), area_id("Purok 1")], ["Purok 1"]),
    ],
)
def test_area_as_an_id_ids_a_comma_text_a_name_or_names(client, staff_headers, operator, area, names):
    res = client.post("/api/schedules", json=the_clients_create(operator, Area=area()), headers=staff_headers)
    assert res.status_code == 201, res.json
    assert db.session.get(CollectionSchedule, res.json["Schedule_id"]).area_names == names


def test_edit_schedule_changes_what_is_sent(client, staff_headers, operator):
    made = client.post("/api/schedules", json=the_clients_create(operator), headers=staff_headers).json
    path = f"/api/schedules/{made['Schedule_id']}"
    res = client.put(path, json={"Collector": "Maria S. Santos", "sched_stat_id": 3}, headers=staff_headers)
    assert res.status_code == 200 and res.json["message"] == "Collection schedule updated."
    row = res.json["schedule"]
    assert (row["Collector"], row["sched_stat_id"], row["status"]) == ("Maria S. Santos", 3, "Collected")
    assert (row["Account_id"], row["Contact"], row["Area"]) == (
        operator.id,
        "09171234567",
        made["schedule"]["Area"],
    )
    other = make_account(role=RoleId.OPERATOR, first_name="Jose", last_name="Reyes")
    body = {
        **the_clients_create(other),
        "Area": str(area_id("Purok 5")),
        "sched_stat_id": "4",
        "Contact": "+639181234567",
    }
    row = client.put(path, json=body, headers=staff_headers).json["schedule"]
    assert {k: row[k] for k in CLIENT_FIELDS} == {
        "Schedule_id": made["Schedule_id"],
        "Account_id": other.id,
        "Collector": "Jose Reyes",
        "Contact": "09181234567",
        "Area": [area_id("Purok 5")],
        "sched_stat_id": 4,
        "Date_of_collection": "2026-03-01",
    }


def test_delete_schedule(client, staff_headers, operator):
    made = client.post("/api/schedules", json=the_clients_create(operator), headers=staff_headers).json
    path = f"/api/schedules/{made['Schedule_id']}"
    res = client.delete(path, headers=staff_headers)
    assert (
        res.status_code == 200
        and res.json["success"] is True
        and res.json["message"] == "Collection schedule deleted."
    )
    assert client.get("/api/schedules", headers=staff_headers).json == []
    assert db.session.scalar(select(func.count()).select_from(CollectionArea)) == 0
    again = client.delete(path, headers=staff_headers)
    assert again.status_code == 404 and again.json["message"] == "Collection schedule not found."
    assert client.put(path, json={"Collector": "X"}, headers=staff_headers).status_code == 404


BAD = [
    ({"Area": [987654]}, "Area", "Area 987654 is not an area of this barangay (see /api/areas)."),
    ({"Area": "Purok 99"}, "Area", "Area Purok 99 is not an area of this barangay (see /api/areas)."),
    (
        {"Area": {"id": 1}},
        "Area",
        "Area must be an area id, a list of area ids, or area names (see /api/areas).",
    ),
    ({"Area": []}, "Area", "Area is required."),
    (
        {"Account_id": 987654},
        "Account_id",
        "Account_id must be the account of an operator (see /api/operators).",
    ),
    (
        {"Account_id": "maria"},
        "Account_id",
        "Account_id must be the account of an operator (see /api/operators).",
    ),
    ({"Account_id": None}, "Account_id", "Operator is required."),
    (
        {"Contact": "maria@example.test"},
        "Contact",
        "Contact must be a Philippine mobile number such as 09171234567.",
    ),
    (
        {"Contact": "(02) 8123 4567"},
        "Contact",
        "Contact must be a Philippine mobile number such as 09171234567.",
    ),
    ({"Contact": "0917123456"}, "Contact", "Contact must be a Philippine mobile number such as 09171234567."),
    ({"Contact": 9171234567}, "Contact", "Contact must be a Philippine mobile number such as 09171234567."),
    ({"Contact": ""}, "Contact", "Contact is required."),
    (
        {"sched_stat_id": 0},
        "sched_stat_id",
        "sched_stat_id must be 1 (Collecting), 2 (Pending), 3 (Collected) or 4 (Cancelled).",
    ),
    (
        {"sched_stat_id": 5},
        "sched_stat_id",
        "sched_stat_id must be 1 (Collecting), 2 (Pending), 3 (Collected) or 4 (Cancelled).",
    ),
    (
        {"sched_stat_id": True},
        "sched_stat_id",
        "sched_stat_id must be 1 (Collecting), 2 (Pending), 3 (Collected) or 4 (Cancelled).",
    ),
    (
        {"sched_stat_id": "Collected"},
        "sched_stat_id",
        "sched_stat_id must be 1 (Collecting), 2 (Pending), 3 (Collected) or 4 (Cancelled).",
    ),
    (
        {"Date_of_collection": "2026-02-30"},
        "Date_of_collection",
        "Date of Collection must be a valid date (YYYY-MM-DD).",
    ),
    ({"Date_of_collection": None}, "Date_of_collection", "Date of Collection is required."),
    ({"Collector": "x" * 101}, "Collector", "Collector must be at most 100 characters."),
]


@pytest.mark.parametrize(("change", "field", "message"), BAD)
def test_bad_values_are_refused_naming_the_clients_field(
    client, staff_headers, operator, change, field, message
):
    res = client.post("/api/schedules", json=the_clients_create(operator, **change), headers=staff_headers)
    assert res.status_code == 400 and res.json["field"] == field and res.json["message"] == message
    assert schedule_count() == 0
    made = client.post("/api/schedules", json=the_clients_create(operator), headers=staff_headers).json
    before = client.get("/api/schedules", headers=staff_headers).json
    res = client.put(f"/api/schedules/{made['Schedule_id']}", json=change, headers=staff_headers)
    assert res.status_code == 400 and res.json["field"] == field and res.json["message"] == message
    assert client.get("/api/schedules", headers=staff_headers).json == before


def test_the_operators_of_staff_or_other_roles_are_refused(client, staff_headers):
    for role in (RoleId.STAFF, RoleId.HOUSEHOLD, RoleId.ADMIN):
        body = the_clients_create(make_account(role=role))
        res = client.post("/api/schedules", json=body, headers=staff_headers)
        assert res.status_code == 400 and res.json["field"] == "Account_id"
    disabled = make_account(role=RoleId.OPERATOR, is_enabled=False)
    assert (
        client.post("/api/schedules", json=the_clients_create(disabled), headers=staff_headers).json["field"]
        == "Account_id"
    )


# Permissions and tenancy ----------------------------------------------------------------------------


def test_the_household_schedule_rules_apply(client, api_headers, operator):
    body = the_clients_create(operator)
    assert client.post("/api/schedules", json=body).status_code == 401
    made = client.post("/api/schedules", json=body, headers=api_headers(make_account(role=RoleId.ADMIN))).json
    path = f"/api/schedules/{made['Schedule_id']}"
    for role in (RoleId.HOUSEHOLD, RoleId.OPERATOR):
        headers = api_headers(make_account(role=role))
        assert client.get("/api/schedules", headers=headers).status_code == 200  # reading: every role
        for res in (
            client.post("/api/schedules", json=body, headers=headers),
            client.put(path, json={"sched_stat_id": 3}, headers=headers),
            client.delete(path, headers=headers),
        ):
            assert res.status_code == 403 and res.json["code"] == "forbidden", role
    no_module = api_headers(make_account(role=RoleId.STAFF, modules=[1, 2, 3, 5]))
    assert client.post("/api/schedules", json=body, headers=no_module).json["module"] == 4
    assert (
        schedule_count() == 1
        and db.session.get(CollectionSchedule, made["Schedule_id"]).status == "Collecting"
    )


@pytest.fixture
def other_barangay():
    """Barangay B with an area, an operator and a schedule of its own."""
    b = Barangay(name="Barangay Dos")
    db.session.add(b)
    db.session.commit()
    with tenancy.scoped(b.id):
        area = Area(name="Sitio Bravo")
        db.session.add(area)
        db.session.commit()
        operator_b = make_account(role=RoleId.OPERATOR, username="bravo.operator", barangay_id=b.id)
        schedule = make_schedule(areas=("Sitio Bravo",), person="Bravo Collector")
    return {"area": area.id, "operator": operator_b.id, "schedule": schedule.id}


def test_another_barangays_rows_are_not_seen_nor_used(client, staff_headers, operator, other_barangay):
    assert client.get("/api/schedules", headers=staff_headers).json == []
    assert "Sitio Bravo" not in {a["Area_Name"] for a in client.get("/api/areas", headers=staff_headers).json}
    assert [o["Username"] for o in client.get("/api/operators", headers=staff_headers).json] == [
        "maria.santos"
    ]
    path = f"/api/schedules/{other_barangay['schedule']}"
    assert client.put(path, json={"sched_stat_id": 3}, headers=staff_headers).status_code == 404
    assert client.delete(path, headers=staff_headers).status_code == 404
    foreign_area = client.post(
        "/api/schedules",
        json=the_clients_create(operator, Area=[other_barangay["area"]]),
        headers=staff_headers,
    )
    assert foreign_area.status_code == 400 and foreign_area.json["field"] == "Area"
    foreign_operator = client.post(
        "/api/schedules",
        json={**the_clients_create(operator), "Account_id": other_barangay["operator"]},
        headers=staff_headers,
    )
    assert foreign_operator.status_code == 400 and foreign_operator.json["field"] == "Account_id"
    with tenancy.unscoped():
        kept = db.session.get(CollectionSchedule, other_barangay["schedule"])
        assert kept is not None and kept.status == "Pending"


# What the console shows can be saved unchanged ------------------------------------------------


def test_every_sample_schedule_put_back_as_read_is_saved_unchanged(client, staff_headers):
    from sibol.household import seed as household_seed

    household_seed.sample_data()
    rows = client.get("/api/schedules", headers=staff_headers).json
    assert rows
    for row in rows:
        body = {name: row[name] for name in CLIENT_FIELDS if name != "Schedule_id"}
        res = client.put(f"/api/schedules/{row['Schedule_id']}", json=body, headers=staff_headers)
        assert res.status_code == 200, (row, res.json)
        again = client.get("/api/schedules", headers=staff_headers).json
        assert next(r for r in again if r["Schedule_id"] == row["Schedule_id"]) == row


def test_put_back_unchanged_still_refuses_a_new_bad_value(client, staff_headers):
    schedule = make_schedule(areas=("Package 3",), contact="pedro@example.test")
    row = next(
        r for r in client.get("/api/schedules", headers=staff_headers).json if r["Schedule_id"] == schedule.id
    )
    assert row["Account_id"] is None and row["Area"] == ["Package 3"]
    url = f"/api/schedules/{schedule.id}"
    for change, field in (
        ({"Account_id": 999999}, "Account_id"),  # another operator must be a real one
        ({"Contact": "pedro@example.org"}, "Contact"),  # a new contact must be a mobile
        ({"Area": ["Package 3", "Package 4"]}, "Area"),  # a new name must be an area
    ):
        res = client.put(url, json={**row, **change}, headers=staff_headers)
        assert res.status_code == 400 and res.json["field"] == field, res.json
