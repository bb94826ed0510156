"""Two (and more) requests with one Idempotency-Key at the same moment, against gunicorn with
several worker processes: the work runs once. SQLite, and MariaDB with SIBOL_TEST_DATABASE_URL."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.support.servers import admin_headers, live_server

SCHEDULE = {
    "maintenancePerson": "Juan Dela Cruz",
    "collectorContact": "0917 123 4567",
    "area": "Purok 1",
    "dateOfCollection": "2026-12-01",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from live_server(tmp_path_factory.mktemp("idem"), "idem", 4)


def all_at_once(calls):
    gate = threading.Barrier(len(calls))

    def run(call):
        gate.wait()
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def schedules_named(server, headers, person: str) -> int:
    res = requests.get(
        f"{server.url}/api/household/schedules", params={"q": person}, headers=headers, timeout=30
    )
    return res.json()["total"]


@pytest.mark.parametrize("callers", [2, 6])
def test_simultaneous_requests_with_one_key_run_the_work_once(server, callers):
    headers = admin_headers(server.url)
    person = f"Racer {callers}"
    body = {**SCHEDULE, "maintenancePerson": person}
    key = {"Idempotency-Key": f"race-{callers}"}

    def send():
        return requests.post(
            f"{server.url}/api/household/schedules", json=body, headers={**headers, **key}, timeout=30
        )

    answers = all_at_once([send] * callers)
    statuses = sorted(a.status_code for a in answers)
    assert set(statuses) <= {201, 409}, [a.text for a in answers]
    assert 201 in statuses
    created = {a.json()["schedule"]["id"] for a in answers if a.status_code == 201}
    assert len(created) == 1  # a 201 after the first is its replay
    assert schedules_named(server, headers, person) == 1
    # Once the first has finished, every retry gets its answer.
    again = send()
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["schedule"]["id"] in created
    assert schedules_named(server, headers, person) == 1


def test_the_same_key_with_another_body_at_the_same_moment_runs_one_of_them(server):
    headers = {**admin_headers(server.url), "Idempotency-Key": "race-bodies"}

    def send(person):
        return lambda: requests.post(
            f"{server.url}/api/household/schedules",
            json={**SCHEDULE, "maintenancePerson": person},
            headers=headers,
            timeout=30,
        )

    answers = all_at_once([send("Body One"), send("Body Two")])
    statuses = sorted(a.status_code for a in answers)
    assert statuses[0] == 201 and statuses[1] in (409, 422), [a.text for a in answers]
    total = schedules_named(server, headers, "Body One") + schedules_named(server, headers, "Body Two")
    assert total == 1
