"""POST /api/telemetry against a live server (gunicorn, two workers with their threads): a 202 means
stored even when the workers are SIGKILLed right after it, and a revoked or replaced key is
refused by every worker within 5 s (the lean path's key cache)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import requests
from sqlalchemy import create_engine, text

from tests.support.servers import AppServer, drop_database, fresh_database, server_env, setup_database

READING = {"ph": 7.1, "temperature_c": 35.2, "weight_kg": 4.0, "methane_pct": 60.0}
# gunicorn's access log line: the answering worker's process id and the status.
LOG_FORMAT = "--access-logformat 'device-http pid=%(p)s status=%(s)s path=%(U)s'"


def workers_of(server: AppServer) -> set[int]:
    assert server.proc is not None
    found = subprocess.run(["pgrep", "-P", str(server.proc.pid)], capture_output=True, text=True, check=False)
    return {int(pid) for pid in found.stdout.split()}


def start(tmp_path: Path, name: str) -> tuple[AppServer, str]:
    url = fresh_database(tmp_path, name)
    env = server_env(
        url,
        SIBOL_SAMPLE_DATA="1",
        RATELIMIT_ENABLED="0",
        GUNICORN_CMD_ARGS=f"--access-logfile - {LOG_FORMAT}",
        GUNICORN_THREADS="4",
    )
    setup_database(env)
    return AppServer(env, workers=2, log=tmp_path / "server.log").start(), url


def admin_headers(base: str) -> dict:
    res = requests.post(
        f"{base}/api/auth/login", json={"username": "admin", "password": "Admin-pass1!"}, timeout=10
    )
    return {"Authorization": f"Bearer {res.json()['token']}"}


def new_machine(base: str, admin: dict) -> int:
    areas = requests.get(f"{base}/api/machines/areas", headers=admin, timeout=10).json()
    rows = areas["data"] if isinstance(areas, dict) else areas
    area = rows[0]
    area_id = area.get("id") or area.get("Area_id")
    res = requests.post(
        f"{base}/api/machines", json={"areaId": area_id, "name": "Live 1"}, headers=admin, timeout=10
    )
    assert res.status_code == 201, res.text
    return int(res.json()["data"]["machine_id"])


def post(base: str, key: str, ts: datetime) -> requests.Response:
    # A new connection each time, so the workers' accept() shares the requests out between them.
    return requests.post(
        f"{base}/api/telemetry",
        json={**READING, "ts": ts.isoformat()},
        headers={"Authorization": f"Device {key}", "Connection": "close"},
        timeout=10,
    )


def test_a_202_is_stored_even_when_the_workers_are_killed_right_after_it(tmp_path):
    server, url = start(tmp_path, "sigkill")
    engine = create_engine(url.replace("mysql://", "mysql+mysqldb://", 1))
    try:
        base = server.url
        admin = admin_headers(base)
        machine = new_machine(base, admin)
        key = requests.post(f"{base}/api/machines/{machine}/device-key", headers=admin, timeout=10).json()
        start_at = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)
        acknowledged = []
        for n in range(5):
            ts = start_at + timedelta(seconds=n)
            answer = post(base, key["deviceKey"], ts)
            assert answer.status_code == 202 and answer.json() == {"accepted": 1, "duplicates": 0}
            acknowledged.append(ts)
            killed = workers_of(server)
            for pid in killed:
                os.kill(pid, signal.SIGKILL)  # a power cut of the worker, the moment the 202 is out
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and (not workers_of(server) or workers_of(server) & killed):
                time.sleep(0.1)
            requests.get(f"{base}/healthz", timeout=30).raise_for_status()
        with engine.connect() as conn:
            stored = conn.execute(
                text("SELECT COUNT(*) FROM telemetry_readings WHERE machine_id = :m"), {"m": machine}
            ).scalar()
        assert stored == len(acknowledged)
        latest = requests.get(f"{base}/api/machines/{machine}/telemetry/latest", headers=admin, timeout=10)
        assert latest.json()["data"]["ph"]["value"] == READING["ph"]
    finally:
        server.stop()
        engine.dispose()
        drop_database(url)


def answers_after(log: Path, mark: int) -> list[tuple[int, int]]:
    """(worker pid, status) of the POST /api/telemetry lines logged after byte `mark`."""
    lines = log.read_bytes()[mark:].decode(errors="replace")
    return [
        (int(pid), int(status))
        for pid, status in re.findall(r"device-http pid=<?(\d+)>? status=(\d+) path=/api/telemetry", lines)
    ]


def until_every_worker_answered(server: AppServer, log: Path, send) -> list[requests.Response]:
    """Send requests (`send(n)`, each on a new connection) until the access log shows that every
    worker has answered one of them; their answers. At most 30 s."""
    mark, answers = log.stat().st_size, []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        answers.append(send(len(answers)))
        if len(answers) % 10 == 0:
            time.sleep(0.2)  # the access log is written after the answer
            if {pid for pid, _status in answers_after(log, mark)} == workers_of(server):
                return answers
    raise AssertionError("the workers did not all answer within 30 s")


def test_a_revoked_or_replaced_key_is_refused_by_every_worker_within_5_seconds(tmp_path):
    server, url = start(tmp_path, "revoke")
    log = tmp_path / "server.log"
    try:
        base = server.url
        admin = admin_headers(base)
        machine = new_machine(base, admin)
        issue = f"{base}/api/machines/{machine}/device-key"
        old = requests.post(issue, headers=admin, timeout=10).json()["deviceKey"]
        clock = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)
        # Every worker learns the key (its cache holds it) before the key is replaced.
        accepted = until_every_worker_answered(
            server, log, lambda n: post(base, old, clock + timedelta(seconds=n))
        )
        assert {r.status_code for r in accepted} == {202}

        new = requests.post(issue, headers=admin, timeout=10).json()["deviceKey"]
        replaced_at = time.monotonic()
        first = post(base, old, clock + timedelta(minutes=30))
        assert time.monotonic() - replaced_at < 5 and first.status_code == 401
        assert first.json()["code"] == "unauthorized"
        refused = until_every_worker_answered(
            server, log, lambda n: post(base, old, clock + timedelta(minutes=31, seconds=n))
        )
        assert {r.status_code for r in refused} == {401}  # from the first request on, by every worker
        assert post(base, new, clock + timedelta(minutes=10)).status_code == 202

        assert requests.delete(issue, headers=admin, timeout=10).status_code == 204
        revoked_at = time.monotonic()
        first = post(base, new, clock + timedelta(minutes=60))
        assert time.monotonic() - revoked_at < 5 and first.status_code == 401
        refused = until_every_worker_answered(
            server, log, lambda n: post(base, new, clock + timedelta(minutes=61, seconds=n))
        )
        assert {r.status_code for r in refused} == {401}
        stored = requests.get(f"{base}/api/machines/{machine}/telemetry/latest", headers=admin, timeout=10)
        assert stored.json()["data"]["ph"]["ts"].startswith(
            (clock + timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M")
        )
    finally:
        server.stop()
        drop_database(url)
