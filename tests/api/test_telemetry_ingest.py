"""Device keys and POST /api/telemetry: authentication, validation, all-or-nothing, duplicates."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.telemetry import DeviceKey, Reading, Rollup
from tests.factories import make_account, make_machine
from tests.factories_telemetry import device, healthy, iso, keyed_machine


def stored(machine_id: int) -> int:
    return db.session.scalar(
        select(func.count()).select_from(Reading).where(Reading.machine_id == machine_id)
    )


def test_staff_issues_a_key_shown_once_and_stored_only_as_a_hash(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine()
    res = client.post(f"/api/machines/{machine.id}/device-key", headers=api_headers(staff))
    assert res.status_code == 201
    key = res.json["deviceKey"]
    row = db.session.get(DeviceKey, machine.id)
    assert row.key_hash and key not in row.key_hash and len(row.key_hash) == 64
    posted = client.post("/api/telemetry", json=healthy(ts=iso(1)), headers=device(key))
    assert posted.status_code == 202 and posted.json == {"accepted": 1, "duplicates": 0}


def test_issuing_again_refuses_the_old_key_from_the_next_request(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    machine, old = keyed_machine()
    new = client.post(f"/api/machines/{machine.id}/device-key", headers=api_headers(staff)).json["deviceKey"]
    assert new != old
    assert client.post("/api/telemetry", json={"ph": 7}, headers=device(old)).status_code == 401
    assert client.post("/api/telemetry", json={"ph": 7}, headers=device(new)).status_code == 202


def test_a_revoked_key_is_refused(client, api_headers):
    admin = make_account(role=RoleId.ADMIN)
    machine, key = keyed_machine()
    res = client.delete(f"/api/machines/{machine.id}/device-key", headers=api_headers(admin))
    assert res.status_code == 204
    refused = client.post("/api/telemetry", json={"ph": 7}, headers=device(key))
    assert refused.status_code == 401 and refused.json["message"]
    again = client.delete(f"/api/machines/{machine.id}/device-key", headers=api_headers(admin))
    assert again.status_code == 404


def test_operators_cannot_issue_or_revoke_keys(client, api_headers):
    operator = make_account(role=RoleId.OPERATOR)
    machine, key = keyed_machine()
    assert (
        client.post(f"/api/machines/{machine.id}/device-key", headers=api_headers(operator)).status_code
        == 403
    )
    assert (
        client.delete(f"/api/machines/{machine.id}/device-key", headers=api_headers(operator)).status_code
        == 403
    )
    assert client.post("/api/telemetry", json={"ph": 7}, headers=device(key)).status_code == 202


def test_unknown_machine_key_is_404(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    assert client.post("/api/machines/999999/device-key", headers=api_headers(staff)).status_code == 404


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Device "}, {"Authorization": "Device sdk_nope"}, {"Authorization": "Bearer x"}],
)
def test_ingestion_needs_a_known_device_key(client, headers):
    keyed_machine()
    res = client.post("/api/telemetry", json={"ph": 7}, headers=headers)
    assert res.status_code == 401 and res.is_json


def test_an_account_token_is_not_a_device_key(client, api_headers):
    admin = make_account(role=RoleId.ADMIN)
    res = client.post("/api/telemetry", json={"ph": 7}, headers=api_headers(admin))
    assert res.status_code == 401


def test_a_batch_is_stored_with_its_rollups(client):
    machine, key = keyed_machine()
    now = datetime.now(UTC).replace(minute=30, second=0, microsecond=0) - timedelta(hours=1)
    readings = [healthy(ts=iso(5 * i, now=now), temperature_c=30 + i) for i in range(4)]
    res = client.post("/api/telemetry", json={"readings": readings}, headers=device(key))
    assert res.status_code == 202 and res.json == {"accepted": 4, "duplicates": 0}
    assert stored(machine.id) == 4
    hour = db.session.get(Rollup, (machine.id, "h", now.replace(minute=0, tzinfo=None)))
    temperature = (
        hour.temperature_c_min,
        hour.temperature_c_max,
        hour.temperature_c_n,
        hour.temperature_c_sum,
    )
    assert temperature == (30, 33, 4, 126)
    day = db.session.get(Rollup, (machine.id, "d", now.replace(hour=0, minute=0, tzinfo=None)))
    assert day.power_w_sum == 4 * 230 * 5 and day.power_w_n == 4
    assert db.session.get(DeviceKey, machine.id).last_reading_at == now.replace(tzinfo=None)


def test_a_resent_reading_is_a_duplicate_never_stored_twice(client):
    machine, key = keyed_machine()
    first = [healthy(ts=iso(10)), healthy(ts=iso(5))]
    assert client.post("/api/telemetry", json={"readings": first}, headers=device(key)).json == {
        "accepted": 2,
        "duplicates": 0,
    }
    again = first + [healthy(ts=iso(1)), healthy(ts=iso(1))]
    res = client.post("/api/telemetry", json={"readings": again}, headers=device(key))
    assert res.json == {"accepted": 1, "duplicates": 3}
    assert stored(machine.id) == 3
    day = db.session.scalar(
        select(func.sum(Rollup.cells("ph").n)).where(Rollup.machine_id == machine.id, Rollup.period == "h")
    )
    assert day == 3


def test_epoch_milliseconds_and_the_same_instant_in_another_offset_are_one_reading(client):
    machine, key = keyed_machine()
    ts = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=3)
    ms = int(ts.timestamp() * 1000)
    assert client.post("/api/telemetry", json={"ts": ms, "ph": 7}, headers=device(key)).json["accepted"] == 1
    manila = ts.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Manila")).isoformat()
    res = client.post("/api/telemetry", json={"ts": manila, "ph": 7.2}, headers=device(key))
    assert res.json == {"accepted": 0, "duplicates": 1}
    assert db.session.scalar(select(Reading.ts).where(Reading.machine_id == machine.id)) == ts.replace(
        tzinfo=None
    )


def test_a_reading_without_ts_takes_the_servers_time(client):
    machine, key = keyed_machine()
    before = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    assert client.post("/api/telemetry", json={"ph": 7}, headers=device(key)).status_code == 202
    ts = db.session.scalar(select(Reading.ts).where(Reading.machine_id == machine.id))
    assert before <= ts <= before + timedelta(seconds=5)


BAD_READINGS = [
    ({"ph": 7, "colour": 3}, "colour"),
    ({"ph": "7"}, "ph"),
    ({"ph": True}, "ph"),
    (lambda: {"ts": iso(1)}, "readings[1]"),
    ({"ph": 14.5}, "ph"),
    ({"ph": -0.1}, "ph"),
    ({"weight_kg": -1}, "weight_kg"),
    ({"water_l": -1}, "water_l"),
    ({"pressure_kpa": -0.5}, "pressure_kpa"),
    ({"methane_pct": 100.5}, "methane_pct"),
    ({"methane_pct": -1}, "methane_pct"),
    # Times relative to now are made when the test runs, not when the module is collected.
    (lambda: {"ph": 7, "ts": iso(-6)}, "ts"),
    (lambda: {"ph": 7, "ts": iso(60 * 24 * 30 + 5)}, "ts"),
    ({"ph": 7, "ts": "2026-05-01T08:00:00"}, "ts"),
    ({"ph": 7, "ts": "yesterday"}, "ts"),
    ({"ph": 7, "ts": 1e20}, "ts"),
    ("not an object", "readings[1]"),
]


@pytest.mark.parametrize(("bad", "field"), BAD_READINGS)
def test_a_bad_reading_refuses_the_whole_batch_naming_index_and_field(client, bad, field):
    machine, key = keyed_machine()
    bad = bad() if callable(bad) else bad
    readings = [healthy(ts=iso(3)), bad, healthy(ts=iso(2))]
    res = client.post("/api/telemetry", json={"readings": readings}, headers=device(key))
    assert res.status_code == 400, res.json
    want = field if field.startswith("readings[") else f"readings[1].{field}"
    assert res.json["field"] == want and want in res.json["message"]
    assert stored(machine.id) == 0
    assert db.session.get(DeviceKey, machine.id).last_reading_at is None


def test_not_finite_numbers_are_refused(client):
    machine, key = keyed_machine()
    res = client.post(
        "/api/telemetry",
        data='{"ph": NaN}',
        headers={**device(key), "Content-Type": "application/json"},
    )
    assert res.status_code == 400 and res.json.get("field") in ("ph", "body")
    assert stored(machine.id) == 0


def test_a_single_reading_names_its_field_without_an_index(client):
    _machine, key = keyed_machine()
    res = client.post("/api/telemetry", json={"ph": 15}, headers=device(key))
    assert res.status_code == 400 and res.json["field"] == "ph"


def test_more_than_500_readings_are_refused(client):
    machine, key = keyed_machine()
    start = datetime.now(UTC) - timedelta(days=2)
    readings = [{"ts": (start + timedelta(minutes=i)).isoformat(), "ph": 7} for i in range(501)]
    res = client.post("/api/telemetry", json={"readings": readings}, headers=device(key))
    assert res.status_code == 400 and res.json["field"] == "readings"
    assert stored(machine.id) == 0
    ok = client.post("/api/telemetry", json={"readings": readings[:500]}, headers=device(key))
    assert ok.json == {"accepted": 500, "duplicates": 0}


@pytest.mark.parametrize(
    ("body", "field"),
    [({"readings": {}}, "readings"), ({"readings": []}, "readings"), ({"readings": [], "x": 1}, "x")],
)
def test_malformed_batches_are_refused(client, body, field):
    _machine, key = keyed_machine()
    res = client.post("/api/telemetry", json=body, headers=device(key))
    assert res.status_code == 400 and res.json["field"] == field


def test_a_non_json_body_is_refused(client):
    _machine, key = keyed_machine()
    assert client.post("/api/telemetry", data="ph=7", headers=device(key)).status_code == 415


@pytest.fixture
def app_overrides():
    return {"SIBOL_TELEMETRY_RATE_LIMIT": "3 per minute"}


def test_ingestion_is_rate_limited_per_device(client):
    _one, key = keyed_machine()
    _two, other = keyed_machine()
    codes = [client.post("/api/telemetry", json={"ph": 7}, headers=device(key)).status_code for _ in range(4)]
    assert codes[:3] == [202, 202, 202]
    limited = client.post("/api/telemetry", json={"ph": 7}, headers=device(key))
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0 and limited.is_json
    assert client.post("/api/telemetry", json={"ph": 7}, headers=device(other)).status_code == 202


def test_ingestion_with_a_session_cookie_needs_no_csrf_token(app, client, login):
    login(make_account(role=RoleId.STAFF))
    app.config["WTF_CSRF_ENABLED"] = True
    refused = client.post("/api/notifications/read-all")
    assert refused.status_code == 400  # the same cookie on an account route needs the token
    _machine, key = keyed_machine()
    res = client.post("/api/telemetry", json={"ph": 7}, headers=device(key))
    assert res.status_code == 202
