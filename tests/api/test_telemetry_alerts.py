"""Healthy ranges, alerts opening and closing, silent machines, acknowledgement."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.telemetry import Alert, DeviceKey
from sibol.telemetry import alerts
from tests.factories import make_account, make_machine
from tests.factories_telemetry import device, keyed_machine

BASE = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)


def send(client, key, *phs, start: int = 0):
    readings = [
        {"ts": (BASE + timedelta(minutes=start + i)).isoformat(), "ph": ph} for i, ph in enumerate(phs)
    ]
    res = client.post("/api/telemetry", json={"readings": readings}, headers=device(key))
    assert res.status_code == 202, res.json
    return res.json


def open_alerts(machine_id: int) -> list[Alert]:
    return list(
        db.session.scalars(select(Alert).where(Alert.machine_id == machine_id, Alert.closed_at.is_(None)))
    )


def test_an_out_of_range_reading_opens_one_alert_per_machine_and_metric(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine()
    send(client, key, 7.0, 5.9, 5.5)
    send(client, key, 5.2, start=3)
    res = client.get(
        "/api/alerts", query_string={"state": "open", "machine": machine.id}, headers=api_headers(staff)
    )
    assert res.status_code == 200
    [alert] = res.json["data"]
    assert alert["metric"] == "ph" and alert["value"] == 5.9 and alert["range"] == {"min": 6.5, "max": 8.0}
    assert alert["openedAt"] == (BASE + timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert alert["state"] == "open" and alert["acknowledgedBy"] is None


def test_three_consecutive_readings_in_range_close_it(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine()
    send(client, key, 9.0, 7.0, 7.0, 8.5, 7.0, 7.1)
    assert len(open_alerts(machine.id)) == 1  # the streak restarted at 8.5
    send(client, key, 7.2, start=6)
    assert open_alerts(machine.id) == []
    closed = client.get("/api/alerts", query_string={"state": "closed"}, headers=api_headers(staff)).json[
        "data"
    ]
    assert len(closed) == 1 and closed[0]["closedAt"] == (BASE + timedelta(minutes=6)).strftime(
        "%Y-%m-%dT%H:%M:%SZ"
    )
    send(client, key, 4.0, start=7)
    assert len(open_alerts(machine.id)) == 1  # a new episode opens a new alert


def test_a_machines_own_range_is_used_and_only_admin_or_staff_edit_it(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    operator = make_account(role=RoleId.OPERATOR)
    machine, key = keyed_machine()
    url = f"/api/machines/{machine.id}/thresholds"
    body = {"ph": {"min": 5.0, "max": 9.0}}
    assert client.put(url, json=body, headers=api_headers(operator)).status_code == 403
    res = client.put(url, json=body, headers=api_headers(staff))
    assert res.status_code == 200 and res.json["data"]["ph"] == {"min": 5.0, "max": 9.0}
    assert client.get(url, headers=api_headers(operator)).json["data"]["temperature_c"] == {
        "min": 30.0,
        "max": 40.0,
    }
    send(client, key, 5.5)
    assert open_alerts(machine.id) == []


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "body"),
        ({"colour": {"min": 1, "max": 2}}, "colour"),
        ({"ph": {"min": 8, "max": 7}}, "ph.min"),
        ({"ph": {"min": "6", "max": 8}}, "ph.min"),
        ({"ph": {"min": 6}}, "ph"),
        ({"ph": {"min": -1, "max": 8}}, "ph"),
        ({"ph": 7}, "ph"),
    ],
)
def test_bad_ranges_are_refused_and_nothing_changes(client, api_headers, body, field):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine()
    url = f"/api/machines/{machine.id}/thresholds"
    res = client.put(
        url,
        json={"temperature_c": {"min": 20, "max": 45}, **body} if body else body,
        headers=api_headers(staff),
    )
    assert res.status_code == 400 and res.json["field"] == field
    assert client.get(url, headers=api_headers(staff)).json["data"]["temperature_c"] == {
        "min": 30.0,
        "max": 40.0,
    }


def test_a_keyed_machine_that_goes_quiet_gets_one_silent_alert_closed_by_its_next_reading(app, client):
    machine, key = keyed_machine()
    quiet = make_machine()  # no key: never silent
    device_row = db.session.get(DeviceKey, machine.id)
    device_row.issued_at = datetime.now(UTC).replace(tzinfo=None) - timedelta(hours=1)
    db.session.commit()
    assert alerts.check_silence() == 1
    assert alerts.check_silence() == 0  # one open alert per machine
    [silent] = open_alerts(machine.id)
    assert silent.metric == "silent" and open_alerts(quiet.id) == []
    client.post("/api/telemetry", json={"ph": 7}, headers=device(key))
    assert open_alerts(machine.id) == []
    assert alerts.check_silence() == 0  # it reported just now


def test_silence_minutes_are_configurable(app):
    machine, _key = keyed_machine()
    db.session.get(DeviceKey, machine.id).issued_at = datetime.now(UTC).replace(tzinfo=None) - timedelta(
        minutes=20
    )
    db.session.commit()
    app.config["SIBOL_TELEMETRY_SILENT_MINUTES"] = 30
    assert alerts.check_silence() == 0
    app.config["SIBOL_TELEMETRY_SILENT_MINUTES"] = 15
    assert alerts.check_silence() == 1


def test_acknowledging_records_who(client, api_headers):
    operator = make_account(role=RoleId.OPERATOR, first_name="Ana", last_name="Reyes")
    household = make_account(role=RoleId.HOUSEHOLD)
    machine, key = keyed_machine()
    send(client, key, 3.0)
    [alert] = open_alerts(machine.id)
    url = f"/api/alerts/{alert.id}/acknowledge"
    assert client.post(url, headers=api_headers(household)).status_code == 403
    res = client.post(url, headers=api_headers(operator))
    assert res.status_code == 200 and res.json["data"]["acknowledgedBy"] == "Ana Reyes"
    again = client.post(url, headers=api_headers(operator))
    assert again.status_code == 409 and "Ana Reyes" in again.json["message"]
    assert client.post("/api/alerts/999999/acknowledge", headers=api_headers(operator)).status_code == 404


def test_alert_list_refuses_a_bad_state(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    res = client.get("/api/alerts", query_string={"state": "maybe"}, headers=api_headers(staff))
    assert res.status_code == 400 and res.json["field"] == "state"
