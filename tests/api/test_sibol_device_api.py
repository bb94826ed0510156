"""SIBOL's own device API: exact request and answer shapes, key checks, refusals, storage."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from sibol.devices import keys
from sibol.extensions import db
from sibol.models.commands import Command
from sibol.models.telemetry import Reading
from tests.factories import make_account
from tests.factories_telemetry import device, iso, keyed_machine

pytestmark = pytest.mark.usefixtures("fresh_identity")


@pytest.fixture
def keyed():
    return keyed_machine("Digester SIBOL")


def x_key(key: str) -> dict:
    return {"X-Device-Key": key}


def readings(machine_id: int) -> list[Reading]:
    db.session.rollback()
    return list(
        db.session.scalars(select(Reading).where(Reading.machine_id == machine_id).order_by(Reading.ts))
    )


def test_weight_is_stored_in_kg_with_sibols_answer(client, keyed):
    machine, key = keyed
    res = client.post("/api/s1-esp32/data", json={"weight": 12.5, "deviceId": "ESP32-S1"}, headers=x_key(key))
    assert res.status_code == 201
    body = res.json
    assert body["success"] is True and body["message"] == "Weight data received"
    assert list(body["data"]) == ["id", "deviceId", "weight", "timestamp"]
    assert body["data"]["deviceId"] == "ESP32-S1" and body["data"]["weight"] == 12.5
    stamp = datetime.fromisoformat(body["data"]["timestamp"].replace("Z", "+00:00"))
    assert abs((datetime.now(UTC) - stamp).total_seconds()) < 5
    [row] = readings(machine.id)
    assert row.id == body["data"]["id"] and row.weight_kg == 12.5 and row.ph is None


def test_a_weight_over_1000_is_grams(client):
    machine, key = keyed_machine()
    res = client.post("/api/s1-esp32/data", json={"weight": 2500, "deviceId": "x"}, headers=device(key))
    assert res.status_code == 201 and res.json["data"]["weight"] == 2.5
    assert readings(machine.id)[0].weight_kg == 2.5
    _m, key1000 = keyed_machine()
    assert (
        client.post("/api/s1-esp32/data", json={"weight": 1000}, headers=device(key1000)).json["data"][
            "weight"
        ]
        == 1000
    )


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/s1-esp32/data", {"weight": 1}),
        ("/api/s3-sensors/data", {"phSensor": 7}),
        ("/api/voltage-current", {"voltage": 230, "current": 5}),
    ],
)
def test_every_data_route_needs_the_machines_key(client, keyed, path, body):
    machine, key = keyed
    for headers in (
        {},
        {"X-Device-Key": "wrong"},
        {"Authorization": "Device wrong"},
        {"Authorization": "Bearer x"},
    ):
        res = client.post(path, json=body, headers=headers)
        assert res.status_code == 401, headers
        assert res.json["success"] is False and res.json["message"]
    keys.revoke_key(machine.id)
    assert client.post(path, json=body, headers=x_key(key)).status_code == 401
    assert readings(machine.id) == []


@pytest.mark.parametrize(
    ("path", "method"),
    [("/api/s1-esp32/commands/ESP32-S1", "GET"), ("/api/s1-esp32/command/1/executed", "PUT")],
)
def test_the_command_routes_need_the_key_too(client, path, method):
    res = client.open(path, method=method)
    assert res.status_code == 401 and res.json["success"] is False


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "weight"),
        ({"weight": "12"}, "weight"),
        ({"weight": True}, "weight"),
        ({"weight": -1}, "weight"),
        ({"weight": None}, "weight"),
    ],
)
def test_a_bad_weight_is_a_400_naming_it_and_stores_nothing(client, keyed, body, field):
    machine, key = keyed
    res = client.post("/api/s1-esp32/data", json=body, headers=x_key(key))
    assert res.status_code == 400 and res.json["field"] == field
    assert res.json["success"] is False and res.json["message"].startswith(field)
    assert readings(machine.id) == []


def sensors(machine_id, **extra) -> dict:
    body = {
        "machineId": machine_id,
        "pressureSensor": 4.2,
        "phSensor": 7.1,
        "tempSensor": 35.5,
        "methaneSensor": 61.0,
        "timestamp": iso(1),
    }
    body.update(extra)
    return body


def test_sensor_readings_are_stored_under_our_metrics(client, keyed):
    machine, key = keyed
    res = client.post("/api/s3-sensors/data", json=sensors(machine.id), headers=x_key(key))
    assert res.status_code == 201
    assert res.json["success"] is True and res.json["message"] == "Sensor reading saved"
    data = res.json["data"]
    assert data["machineId"] == machine.id and data["phSensor"] == 7.1 and data["timestamp"].endswith("Z")
    [row] = readings(machine.id)
    assert (row.pressure_kpa, row.ph, row.temperature_c, row.methane_pct) == (4.2, 7.1, 35.5, 61.0)
    assert row.id == data["id"]
    # machineId as text, as a controller may send it, is the same machine.
    ok = client.post(
        "/api/s3-sensors/data", json=sensors(str(machine.id), timestamp=iso(2)), headers=x_key(key)
    )
    assert ok.status_code == 201


def test_a_resent_reading_is_not_stored_twice(client, keyed):
    machine, key = keyed
    body = sensors(machine.id)
    first = client.post("/api/s3-sensors/data", json=body, headers=x_key(key))
    second = client.post("/api/s3-sensors/data", json=body, headers=x_key(key))
    assert first.status_code == second.status_code == 201
    assert second.json["data"]["id"] == first.json["data"]["id"]
    assert len(readings(machine.id)) == 1


def test_another_machines_id_is_refused_with_403(client, keyed):
    machine, key = keyed
    other, _other_key = keyed_machine()
    for wrong in (other.id, "ESP32-S3", 0):
        res = client.post("/api/s3-sensors/data", json=sensors(wrong), headers=x_key(key))
        assert res.status_code == 403 and res.json["success"] is False and res.json["field"] == "machineId"
    assert readings(machine.id) == [] and readings(other.id) == []


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"phSensor": 15}, "phSensor"),
        ({"phSensor": "7"}, "phSensor"),
        ({"methaneSensor": 101}, "methaneSensor"),
        ({"pressureSensor": -2}, "pressureSensor"),
        ({"tempSensor": [1]}, "tempSensor"),
        ({"timestamp": "yesterday"}, "timestamp"),
        ({"timestamp": "2026-05-01T08:00:00"}, "timestamp"),
        (
            {"pressureSensor": None, "phSensor": None, "tempSensor": None, "methaneSensor": None},
            "pressureSensor",
        ),
    ],
)
def test_a_bad_sensor_value_is_a_400_naming_sibols_field(client, keyed, extra, field):
    machine, key = keyed
    res = client.post("/api/s3-sensors/data", json=sensors(machine.id, **extra), headers=x_key(key))
    assert res.status_code == 400, res.json
    assert res.json["field"] == field and res.json["message"] and res.json["success"] is False
    assert readings(machine.id) == []


def test_timestamps_older_than_30_days_or_ahead_are_refused(client, keyed):
    machine, key = keyed
    old = (datetime.now(UTC) - timedelta(days=31)).isoformat()
    ahead = int((datetime.now(UTC) + timedelta(hours=1)).timestamp() * 1000)
    for stamp in (old, ahead):
        res = client.post(
            "/api/s3-sensors/data", json=sensors(machine.id, timestamp=stamp), headers=x_key(key)
        )
        assert res.status_code == 400 and res.json["field"] == "timestamp"
    epoch_ms = int((datetime.now(UTC) - timedelta(minutes=3)).timestamp() * 1000)
    ok = client.post("/api/s3-sensors/data", json=sensors(machine.id, timestamp=epoch_ms), headers=x_key(key))
    assert ok.status_code == 201


def test_voltage_and_current_are_stored_within_sibols_ranges(client, keyed):
    machine, key = keyed
    body = {"voltage": 229.5, "current": 4.75, "deviceId": "ESP32-VC", "timestamp": iso(1)}
    res = client.post("/api/voltage-current", json=body, headers=device(key))
    assert res.status_code == 201 and res.json["success"] is True
    assert res.json["data"]["voltage"] == 229.5 and res.json["data"]["current"] == 4.75
    assert res.json["data"]["deviceId"] == "ESP32-VC"
    [row] = readings(machine.id)
    assert (row.voltage_v, row.current_a) == (229.5, 4.75)
    for bad, field in (
        ({"voltage": 500.1}, "voltage"),
        ({"voltage": -1}, "voltage"),
        ({"current": 100.5}, "current"),
        ({"current": -0.1}, "current"),
        ({"current": None}, "current"),
        ({"voltage": "230"}, "voltage"),
    ):
        res = client.post(
            "/api/voltage-current", json={**body, "timestamp": iso(2), **bad}, headers=device(key)
        )
        assert res.status_code == 400 and res.json["field"] == field, bad
    assert len(readings(machine.id)) == 1
    edge = {"voltage": 0, "current": 100, "timestamp": iso(3)}
    assert client.post("/api/voltage-current", json=edge, headers=device(key)).status_code == 201


def test_separate_routes_at_one_time_fill_one_reading(client, keyed):
    machine, key = keyed
    stamp = iso(4)
    client.post("/api/s3-sensors/data", json=sensors(machine.id, timestamp=stamp), headers=x_key(key))
    res = client.post(
        "/api/voltage-current", json={"voltage": 231, "current": 5, "timestamp": stamp}, headers=x_key(key)
    )
    assert res.status_code == 201
    [row] = readings(machine.id)
    assert (row.ph, row.voltage_v, row.current_a) == (7.1, 231, 5)
    again = client.post(
        "/api/voltage-current", json={"voltage": 1, "current": 1, "timestamp": stamp}, headers=x_key(key)
    )
    assert again.status_code == 201 and again.json["data"]["voltage"] == 231  # a duplicate keeps the first


def test_not_json_is_refused(client, keyed):
    machine, key = keyed
    res = client.post("/api/s1-esp32/data", data="weight=1", headers=x_key(key))
    assert res.status_code in (400, 415) and res.json["success"] is False
    assert client.post("/api/s1-esp32/data", json=[1], headers=x_key(key)).status_code == 400
    assert readings(machine.id) == []


def test_sibols_command_poll_and_executed_mark(client, api_headers, keyed):
    machine, key = keyed
    staff = api_headers(make_account())
    cid = client.post(
        f"/api/machines/{machine.id}/commands", json={"command": "stir", "value": 7}, headers=staff
    ).json["id"]
    res = client.get("/api/s1-esp32/commands/ESP32-S1", headers=x_key(key))
    assert res.status_code == 200
    [cmd] = res.json["commands"]
    assert res.json["count"] == 1
    assert list(cmd) == ["id", "deviceId", "command", "value", "timestamp"]
    assert (cmd["id"], cmd["deviceId"], cmd["command"], cmd["value"]) == (cid, "ESP32-S1", "stir", 7)
    assert db.session.get(Command, cid).status == "delivered"
    assert client.get("/api/s1-esp32/commands/ESP32-S1", headers=x_key(key)).json == {
        "count": 0,
        "commands": [],
    }

    _other, other_key = keyed_machine()
    assert client.put(f"/api/s1-esp32/command/{cid}/executed", headers=x_key(other_key)).status_code == 404
    done = client.put(f"/api/s1-esp32/command/{cid}/executed", headers=x_key(key))
    assert done.status_code == 200 and done.json == {"success": True, "message": "Command marked as executed"}
    again = client.put(f"/api/s1-esp32/command/{cid}/executed", headers=x_key(key))
    assert again.status_code == 409 and again.json["success"] is False
    assert client.put("/api/s1-esp32/command/nope/executed", headers=x_key(key)).status_code == 404
    db.session.rollback()
    assert db.session.get(Command, cid).status == "executed"


def test_readings_count_once_in_the_rollups(client, keyed):
    from sibol.models.telemetry import Rollup

    machine, key = keyed
    stamp = iso(5)
    client.post("/api/s3-sensors/data", json=sensors(machine.id, timestamp=stamp), headers=x_key(key))
    client.post("/api/s3-sensors/data", json=sensors(machine.id, timestamp=stamp), headers=x_key(key))
    client.post(
        "/api/voltage-current", json={"voltage": 230, "current": 5, "timestamp": stamp}, headers=x_key(key)
    )
    db.session.rollback()
    counts = {
        metric: db.session.scalar(
            select(func.sum(Rollup.cells(metric).n)).where(
                Rollup.machine_id == machine.id, Rollup.period == "h"
            )
        )
        for metric in ("ph", "voltage_v", "power_w")
    }
    assert counts["ph"] == 1 and counts["voltage_v"] == 1 and counts["power_w"] == 1
