"""Read-back: latest values, series in raw / 5m / 1h / 1d buckets, retention purge."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.telemetry import Reading, Rollup
from sibol.telemetry import rollups
from tests.factories import make_account, make_machine
from tests.factories_telemetry import device, hour_start, keyed_machine

BASE = hour_start(3)


def post(client, key, readings):
    res = client.post("/api/telemetry", json={"readings": readings}, headers=device(key))
    assert res.status_code == 202, res.json
    return res.json


def at(minutes: int) -> str:
    return (BASE + timedelta(minutes=minutes)).isoformat()


def test_latest_gives_each_metrics_newest_value_and_time(client, api_headers):
    staff = make_account(role=RoleId.OPERATOR)
    machine, key = keyed_machine()
    post(client, key, [{"ts": at(0), "ph": 7.0, "methane_pct": 55}, {"ts": at(10), "ph": 7.3}])
    res = client.get(f"/api/machines/{machine.id}/telemetry/latest", headers=api_headers(staff))
    assert res.status_code == 200
    data = res.json["data"]
    assert data["ph"] == {"value": 7.3, "ts": (BASE + timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%SZ")}
    assert data["methane_pct"]["value"] == 55 and "voltage_v" not in data


def test_latest_of_a_silent_machine_is_empty_and_unknown_machine_404(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine()
    assert (
        client.get(f"/api/machines/{machine.id}/telemetry/latest", headers=api_headers(staff)).json["data"]
        == {}
    )
    assert client.get("/api/machines/999999/telemetry/latest", headers=api_headers(staff)).status_code == 404


def test_series_buckets(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine()
    post(client, key, [{"ts": at(m), "temperature_c": 30 + m / 5} for m in range(0, 125, 5)])  # 25 readings
    url = f"/api/machines/{machine.id}/telemetry"
    window = {
        "from": (BASE - timedelta(minutes=1)).isoformat(),
        "to": (BASE + timedelta(hours=3)).isoformat(),
    }
    raw = client.get(
        url, query_string={"metric": "temperature_c", "bucket": "raw", **window}, headers=api_headers(staff)
    )
    assert raw.status_code == 200 and len(raw.json["data"]) == 25
    assert raw.json["data"][0] == {
        "ts": BASE.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "min": 30,
        "max": 30,
        "avg": 30,
        "count": 1,
    }
    hourly = client.get(
        url, query_string={"metric": "temperature_c", "bucket": "1h", **window}, headers=api_headers(staff)
    )
    points = hourly.json["data"]
    assert [p["count"] for p in points] == [12, 12, 1]
    assert points[0]["min"] == 30 and points[0]["max"] == 41 and points[0]["avg"] == pytest.approx(35.5)
    five = client.get(
        url, query_string={"metric": "temperature_c", "bucket": "5m", **window}, headers=api_headers(staff)
    )
    assert len(five.json["data"]) == 25
    daily = client.get(
        url,
        query_string={
            "metric": "temperature_c",
            "bucket": "1d",
            "from": (BASE - timedelta(days=2)).isoformat(),
        },
        headers=api_headers(staff),
    )
    assert sum(p["count"] for p in daily.json["data"]) == 25


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({}, "metric"),
        ({"metric": "colour"}, "metric"),
        ({"metric": "ph", "bucket": "2h"}, "bucket"),
        ({"metric": "ph", "from": "soon"}, "from"),
        ({"metric": "ph", "from": "2026-02-01T00:00:00Z", "to": "2026-01-01T00:00:00Z"}, "to"),
        (
            {"metric": "ph", "bucket": "raw", "from": "2025-01-01T00:00:00Z", "to": "2026-01-01T00:00:00Z"},
            "bucket",
        ),
    ],
)
def test_series_refuses_bad_queries_naming_the_field(client, api_headers, query, field):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine()
    res = client.get(f"/api/machines/{machine.id}/telemetry", query_string=query, headers=api_headers(staff))
    assert res.status_code == 400 and res.json["field"] == field


def test_households_cannot_read_telemetry(client, api_headers):
    household = make_account(role=RoleId.HOUSEHOLD)
    machine = make_machine()
    res = client.get(f"/api/machines/{machine.id}/telemetry/latest", headers=api_headers(household))
    assert res.status_code == 403


def test_raw_purge_keeps_the_rollups(client):
    machine, key = keyed_machine()
    old = datetime.now(UTC) - timedelta(days=20)
    post(client, key, [{"ts": old.isoformat(), "ph": 7}, {"ts": at(0), "ph": 7.2}])
    removed = rollups.purge_raw(10)
    assert removed == 1
    assert db.session.scalar(select(func.count()).select_from(Reading)) == 1
    counted = db.session.scalar(
        select(func.sum(Rollup.cells("ph").n)).where(Rollup.machine_id == machine.id, Rollup.period == "d")
    )
    assert counted == 2
