"""The rollup rows: one per machine, period and start, with every metric's min, max, sum and count.

A reading that lacks some metrics leaves their cells as they were; one reading at a time (the
lean single-reading path), a batch (the MQTT subscriber's path) and the general path give the
same rows. Values are exact in binary (and in MariaDB's FLOAT), so sums do not depend on the
order the paths add them in.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Table, select

from sibol.extensions import db
from sibol.models import RoleId, utcnow
from sibol.models.telemetry import Rollup
from sibol.telemetry import batch, ingest
from tests.factories import make_account
from tests.factories_telemetry import device, healthy, hour_start, keyed_machine

ROLLUPS = Rollup.__table__
assert isinstance(ROLLUPS, Table)


@pytest.fixture
def general_stores(monkeypatch) -> list[int]:
    """The machines whose readings went the general way (ingest.store) instead of the lean one."""
    seen: list[int] = []
    store = ingest.store

    def counted(machine_id, readings, **kw):
        seen.append(machine_id)
        return store(machine_id, readings, **kw)

    monkeypatch.setattr(ingest, "store", counted)
    return seen


def post_one(client, key: str, reading: dict) -> None:
    res = client.post("/api/telemetry", json=reading, headers=device(key))
    assert res.status_code == 202 and res.json == {"accepted": 1, "duplicates": 0}, res.json


def row_of(machine_id: int, period: str, start: datetime):
    db.session.rollback()  # a fresh snapshot: the lean path commits on a connection of its own
    return db.session.get(Rollup, (machine_id, period, start.replace(tzinfo=None)))


def cells(row: Rollup, metric: str) -> tuple:
    return tuple(getattr(row, name.key) for name in Rollup.cells(metric))


def rows_of(machine_id: int) -> list[tuple]:
    """Every rollup row of the machine, whole (each metric's four cells), without its id."""
    db.session.rollback()
    columns = [c for c in ROLLUPS.c if c.name != "machine_id"]
    found = db.session.execute(select(*columns).where(ROLLUPS.c.machine_id == machine_id))
    return sorted(tuple(r) for r in found)


def test_a_reading_without_some_metrics_leaves_their_cells_and_counts(client, api_headers, general_stores):
    machine, key = keyed_machine()
    hour = hour_start(3)

    def at(minutes: int) -> str:
        return (hour + timedelta(minutes=minutes)).isoformat()

    post_one(client, key, healthy(ts=at(5), ph=7.0))  # every metric, power 230 V x 5 A
    post_one(client, key, {"ts": at(10), "ph": 7.5})
    post_one(client, key, {"ts": at(15), "voltage_v": 220.0})  # no current: no power
    post_one(client, key, {"ts": at(20), "temperature_c": 33.5, "current_a": 4.5})  # no voltage
    post_one(client, key, {"ts": at(65), "ph": 7.25})  # the next hour: its own row, only pH
    assert general_stores == []  # every reading took the lean single-reading path

    first = row_of(machine.id, "h", hour)
    assert cells(first, "ph") == (7.0, 7.5, 14.5, 2)
    assert cells(first, "voltage_v") == (220.0, 230.0, 450.0, 2)
    assert cells(first, "current_a") == (4.5, 5.0, 9.5, 2)
    assert cells(first, "power_w") == (1150.0, 1150.0, 1150.0, 1)
    assert cells(first, "temperature_c") == (33.5, 35.0, 68.5, 2)
    assert cells(first, "weight_kg") == (12.5, 12.5, 12.5, 1)
    assert cells(first, "water_l") == (10.0, 10.0, 10.0, 1)
    second = row_of(machine.id, "h", hour + timedelta(hours=1))
    assert cells(second, "ph") == (7.25, 7.25, 7.25, 1)
    for metric in ("weight_kg", "temperature_c", "voltage_v", "power_w", "water_l"):
        assert cells(second, metric) == (None, None, None, 0), metric
    if hour.date() == (hour + timedelta(hours=1)).date():
        day = row_of(machine.id, "d", hour.replace(hour=0))
        assert cells(day, "ph") == (7.0, 7.5, 21.75, 3) and cells(day, "power_w")[3] == 1

    # What a reader of the series sees: a point only where the metric was reported.
    staff = make_account(role=RoleId.STAFF)
    window = {"from": hour.isoformat(), "to": (hour + timedelta(hours=2)).isoformat(), "bucket": "1h"}
    url = f"/api/machines/{machine.id}/telemetry"
    ph = client.get(url, query_string={**window, "metric": "ph"}, headers=api_headers(staff)).json["data"]
    assert [(p["min"], p["max"], p["avg"], p["count"]) for p in ph] == [
        (7.0, 7.5, 7.25, 2),
        (7.25, 7.25, 7.25, 1),
    ]
    temperature = client.get(
        url, query_string={**window, "metric": "temperature_c"}, headers=api_headers(staff)
    )
    assert [(p["avg"], p["count"]) for p in temperature.json["data"]] == [(34.25, 2)]
    power = client.get(url, query_string={**window, "metric": "power_w"}, headers=api_headers(staff))
    assert [(p["avg"], p["count"]) for p in power.json["data"]] == [(1150.0, 1)]


def varied_readings() -> list[dict]:
    """Readings across an hour and a UTC day boundary, each lacking some metrics, all in range
    (no alert: a single reading stays on the lean path)."""
    midnight = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=2)
    out = []
    for i, minutes in enumerate((-70, -65, -30, -3, 0, 2, 61, 62, 125)):
        reading = healthy(
            ts=(midnight + timedelta(minutes=minutes, seconds=i)).isoformat(),
            weight_kg=10.0 + i * 1.25,
            ph=7.0 + (i % 3) * 0.25,
            temperature_c=33.0 + i % 4,
            current_a=4.0 + (i % 2) * 0.5,
        )
        for gone in (("ph",), ("current_a",), ("voltage_v", "water_l"), ("weight_kg", "methane_pct"))[
            : i % 5
        ]:
            for metric in gone:
                reading.pop(metric)
        out.append(reading)
    return out


def test_the_batch_single_and_general_paths_give_the_same_rollup_rows(client, general_stores):
    one_by_one, key = keyed_machine()
    by_batch, _key = keyed_machine()
    at_once, _other = keyed_machine()
    readings = varied_readings()

    for reading in readings:
        post_one(client, key, reading)
    assert general_stores == []

    def message(reading: dict) -> batch.Incoming:
        return batch.Incoming(by_batch.id, json.dumps(reading).encode())

    first = batch.store_messages([message(r) for r in readings[:4]])
    second = batch.store_messages([message(r) for r in readings[4:]])  # folds into the first's rows
    assert (first.stored, second.stored) == (4, 5)

    now = utcnow()
    ingest.store(at_once.id, ingest.parse_body({"readings": readings[:6]}, now), now=now)
    ingest.store(at_once.id, ingest.parse_body({"readings": readings[6:]}, now), now=now)

    expected = rows_of(one_by_one.id)
    assert len(expected) == 5 + 2  # five hours over two UTC days, and the two days
    assert rows_of(by_batch.id) == expected
    assert rows_of(at_once.id) == expected
