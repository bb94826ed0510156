"""The lean path of device routes (keys.device_route): what a device gets back, and the key cache."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from sibol.devices import keys
from sibol.errors import Conflict
from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.telemetry import Alert, Reading, Rollup
from tests.factories import make_account
from tests.factories_telemetry import device, healthy, iso, keyed_machine


@pytest.fixture
def echo_route():
    """A device route of another feature's kind: a GET with an id in its path, no write."""

    @keys.device_route("GET", "/api/device/echo/<thing_id>")
    def echo(dev: keys.Device, req, thing_id: int):
        if thing_id == 409:
            raise Conflict("Already done.", field="thing_id")
        return {"machineId": dev.machine_id, "thingId": thing_id, "q": req.args.get("q")}, 200

    yield echo
    del keys.DEVICE_ROUTES[("GET", "/api/device/echo/<thing_id>")]


def test_a_device_route_gets_the_machine_and_its_path_ids(client, echo_route):
    machine, key = keyed_machine()
    res = client.get("/api/device/echo/42?q=hi", headers=device(key))
    assert res.status_code == 200 and res.json == {"machineId": machine.id, "thingId": 42, "q": "hi"}
    assert res.headers["Cache-Control"] == "no-store" and res.headers["X-Content-Type-Options"] == "nosniff"
    assert "Set-Cookie" not in res.headers  # no page session is opened or saved
    refused = client.get("/api/device/echo/409", headers=device(key))
    assert refused.status_code == 409 and refused.json["field"] == "thing_id"
    assert client.get("/api/device/echo/abc", headers=device(key)).status_code == 404  # not a device route


def test_a_device_route_refuses_a_missing_or_unknown_key_as_json(client, echo_route):
    for headers in ({}, {"Authorization": "Bearer nope"}, device("sdk_unknown")):
        res = client.get("/api/device/echo/1", headers=headers)
        assert res.status_code == 401 and res.is_json and res.json["code"] == "unauthorized"


def test_a_revoked_key_is_refused_by_a_route_that_only_reads_within_the_cache_time(
    client, api_headers, echo_route
):
    admin = make_account(role=RoleId.ADMIN)
    machine, key = keyed_machine()
    assert client.get("/api/device/echo/1", headers=device(key)).status_code == 200  # cached now
    res = client.delete(f"/api/machines/{machine.id}/device-key", headers=api_headers(admin))
    assert res.status_code == 204
    # As another worker that checked the key just before: it trusts it DEVICE_CACHE_SECONDS at most.
    keys._cache[keys.hash_key(key)] = (machine.id, time.monotonic())
    assert client.get("/api/device/echo/1", headers=device(key)).status_code == 200
    time.sleep(keys.DEVICE_CACHE_SECONDS + 0.1)
    assert client.get("/api/device/echo/1", headers=device(key)).status_code == 401
    assert keys.DEVICE_CACHE_SECONDS <= 5


def test_a_write_refuses_a_revoked_key_at_once_even_when_the_cache_still_holds_it(client, api_headers):
    admin = make_account(role=RoleId.ADMIN)
    machine, key = keyed_machine()
    assert client.post("/api/telemetry", json=healthy(ts=iso(3)), headers=device(key)).status_code == 202
    client.delete(f"/api/machines/{machine.id}/device-key", headers=api_headers(admin))
    keys._cache[keys.hash_key(key)] = (machine.id, time.monotonic())  # as another worker still has it
    refused = client.post("/api/telemetry", json=healthy(ts=iso(2)), headers=device(key))
    assert refused.status_code == 401 and refused.json["code"] == "unauthorized"
    count = select(func.count()).select_from(Reading).where(Reading.machine_id == machine.id)
    assert db.session.scalar(count) == 1


@pytest.mark.parametrize(
    ("body", "content_type", "status", "field"),
    [
        (b"", "application/json", 400, "body"),
        (b"{not json", "application/json", 400, "body"),
        (b"[1, 2]", "application/json", 400, "body"),
        (b"\xff\xfe", "application/json", 400, "body"),
        (b'{"ph": 7}', "text/plain", 415, None),
        (b"[" * 40 + b"]" * 40, "application/json", 400, "body"),
        (b'{"ph": "7"}', "application/json", 400, "ph"),
        (b'{"ph": 7, "colour": 1}', "application/json", 400, "colour"),
    ],
)
def test_bad_bodies_get_a_4xx_naming_the_field_and_store_nothing(client, body, content_type, status, field):
    machine, key = keyed_machine()
    res = client.post("/api/telemetry", data=body, headers={**device(key), "Content-Type": content_type})
    assert res.status_code == status and res.is_json
    if field:
        assert res.json["field"] == field
    count = select(func.count()).select_from(Reading).where(Reading.machine_id == machine.id)
    assert db.session.scalar(count) == 0


def test_one_reading_keeps_rollups_duplicates_and_alerts_as_a_batch_does(client):
    machine, key = keyed_machine()
    ts = iso(10)
    assert client.post("/api/telemetry", json=healthy(ts=ts), headers=device(key)).json == {
        "accepted": 1,
        "duplicates": 0,
    }
    again = client.post("/api/telemetry", json=healthy(ts=ts), headers=device(key))
    assert again.status_code == 202 and again.json == {"accepted": 0, "duplicates": 1}
    assert client.post("/api/telemetry", json=healthy(ts=iso(9)), headers=device(key)).status_code == 202
    hours = db.session.scalars(
        select(Rollup).where(Rollup.machine_id == machine.id, Rollup.period == "h")
    ).all()
    assert sum(h.ph_n for h in hours) == 2
    # An out-of-range value opens an alert; three in range close it.
    assert (
        client.post("/api/telemetry", json=healthy(ph=3.0, ts=iso(8)), headers=device(key)).status_code == 202
    )
    open_alert = select(Alert).where(Alert.machine_id == machine.id, Alert.closed_at.is_(None))
    assert db.session.scalars(open_alert).one().metric == "ph"
    for minutes in (7, 6, 5):
        client.post("/api/telemetry", json=healthy(ts=iso(minutes)), headers=device(key))
    db.session.expire_all()
    assert db.session.scalars(open_alert).first() is None


def test_a_reading_stored_alone_is_a_duplicate_in_a_later_batch_and_shares_its_rollup_rows(client):
    """The lean path writes times as the general one does, so (machine, ts) and a rollup row's
    (machine, period, start) are the same whichever path wrote them first."""
    machine, key = keyed_machine()
    ts = datetime.now(UTC).replace(minute=30, second=0, microsecond=0) - timedelta(hours=2)
    alone = healthy(ts=ts.isoformat())
    assert client.post("/api/telemetry", json=alone, headers=device(key)).json == {
        "accepted": 1,
        "duplicates": 0,
    }
    later = healthy(ts=(ts + timedelta(minutes=1)).isoformat())
    res = client.post("/api/telemetry", json={"readings": [alone, later]}, headers=device(key))
    assert res.json == {"accepted": 1, "duplicates": 1}
    db.session.rollback()
    assert (
        db.session.scalar(select(func.count()).select_from(Reading).where(Reading.machine_id == machine.id))
        == 2
    )
    hours = db.session.scalars(
        select(Rollup).where(Rollup.machine_id == machine.id, Rollup.period == "h")
    ).all()
    assert [(h.start, h.ph_n) for h in hours] == [(ts.replace(minute=0, tzinfo=None), 2)]
