"""Telemetry: ingestion throughput and read-back latency against gunicorn (2 workers), on SQLite
and MariaDB.

    .venv/bin/python bench/telemetry_bench.py [--machines 10] [--days 30] [--seconds 4] [--rounds 3]
        [--clients 32] [--only sqlite|mysql] [--smoke]

For each database: a fresh schema (flask setup), --machines machines with device keys, then
--days of 5-minute readings per machine bulk-loaded with their hourly and daily rollups (100
machines x 30 days = 864,000 readings: `--machines 100`). Then, with rate limiting off:
  * --rounds rounds of: GET /healthz (the ceiling of this server here), then POST /api/telemetry
    with one reading a request, each --seconds with --clients keep-alive clients: requests/s and
    their share of /healthz within the round, medians over the rounds;
  * POST /api/telemetry, batches of 100: readings stored per second;
  * GET /api/machines/{id}/telemetry/latest and a 30-day bucket=1h chart of one metric, random
    machines, --read-clients at once (default 2, one per worker): p50 / p95 latency.
MariaDB: SIBOL_BENCH_MYSQL_URL (default mysql://root@127.0.0.1:3306), a database of its own,
created and dropped; unreachable, the bench fails (--only sqlite leaves it out).
--smoke: a tiny run (2 machines, 1 day, 0.5 s a case, one round) that only proves it works.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from api_bench import run_load
from common import ADMIN_PASSWORD, median, mysql_database, percentile, summary, table
from sqlalchemy import insert

from tests.support.servers import AppServer, server_env, setup_database

MYSQL_DB = "sibol_bench_telemetry"
LOADS = 0  # batch loads run so far: each writes its own day of readings
RECENT: dict[str, int] = {}  # device key -> the next (earlier) second of its one-reading posts


def fake_values(rng: random.Random) -> dict:
    return {
        "weight_kg": round(rng.uniform(0, 20), 1),
        "ph": round(rng.uniform(6.8, 7.6), 2),
        "temperature_c": round(rng.uniform(32, 38), 2),
        "pressure_kpa": round(rng.uniform(2, 6), 2),
        "methane_pct": round(rng.uniform(55, 65), 1),
        "voltage_v": round(rng.uniform(225, 235), 1),
        "current_a": round(rng.uniform(4, 6), 2),
        "water_l": round(rng.uniform(0, 20), 1),
    }


def fill(database_url: str, machines: int, days: int) -> tuple[list[int], list[str]]:
    """Machines with keys, and `days` of 5-minute readings each with their rollups (bulk)."""
    from sibol import create_app
    from sibol.devices import keys
    from sibol.extensions import db
    from sibol.models import Area, Machine
    from sibol.models.telemetry import Reading
    from sibol.telemetry import rollups

    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SIBOL_SAMPLE_DATA": False})
    rng = random.Random(14)
    with app.app_context():
        # A core insert is not stamped by the ORM session: each machine takes its area's barangay.
        area_id, barangay_id = db.session.execute(db.select(Area.id, Area.barangay_id).limit(1)).one()
        db.session.execute(
            insert(Machine),
            [{"name": f"Bench {i}", "area_id": area_id, "barangay_id": barangay_id} for i in range(machines)],
        )
        db.session.commit()
        ids = list(db.session.scalars(db.select(Machine.id).order_by(Machine.id)))[:machines]
        raw_keys = [keys.issue_key(i, actor_id=None) for i in ids]
        end = datetime.now(UTC).replace(tzinfo=None, minute=0, second=0, microsecond=0)
        start = end - timedelta(days=days)
        steps = days * 288
        for machine_id in ids:
            rows = []
            for k in range(steps):
                ts = start + timedelta(minutes=5 * k)
                rows.append({"machine_id": machine_id, "ts": ts, **fake_values(rng)})
            db.session.execute(insert(Reading), rows)
            rollups.add_many(db.session.connection(), {machine_id: rows})  # as ingestion folds them
            db.session.commit()
        db.engine.dispose()
    return ids, raw_keys


def connection(base: str) -> http.client.HTTPConnection:
    return http.client.HTTPConnection(urlsplit(base).netloc, timeout=60)


def ingest_load(base: str, raw_keys: list[str], batch: int, seconds: float, clients: int) -> dict:
    """Each client posts for its own machines (no two clients share one), `batch` readings a
    request, each a fresh second so none is a duplicate. One reading a request is what a
    controller sends as it measures: the seconds just before now, walking back one second per
    reading of a machine (the next load goes on from there). Batches are a backlog uploaded
    later: a day of their own from 29 days ago."""
    stored, errors, requests, lock = 0, 0, 0, threading.Lock()
    stop_at = time.monotonic() + seconds
    # Each load gets a day of its own from 29 days ago, one second per reading of a machine,
    # never on a 5-minute mark (the loaded readings' times): no reading is a duplicate.
    global LOADS
    origin = int((datetime.now(UTC) - timedelta(days=29)).timestamp()) + LOADS * 86_400 + 17
    LOADS += 1

    def client(n: int) -> None:
        nonlocal stored, errors, requests
        mine = raw_keys[n::clients] or raw_keys[:1]
        conn, ok, bad, k, sent = connection(base), 0, 0, 0, 0
        rng = random.Random(n)
        values = [fake_values(rng) for _ in range(batch)]  # made once: the client's CPU is the server's
        next_ts = dict.fromkeys(mine, origin)

        def stamp(key: str) -> int:
            # Never on a 5-minute mark: the loaded readings' times.
            if batch == 1:
                t = RECENT.setdefault(key, int(time.time()) - 1)
                t -= t % 300 == 0
                RECENT[key] = t - 1
                return t * 1000
            t = next_ts[key] + (next_ts[key] % 300 == 0)
            next_ts[key] = t + 1
            return t * 1000

        while time.monotonic() < stop_at:
            key = mine[k % len(mine)]
            readings = [{"ts": stamp(key), **values[j]} for j in range(batch)]
            body = json.dumps(readings[0] if batch == 1 else {"readings": readings})
            k += 1
            try:
                conn.request("POST", "/api/telemetry", body, {"Content-Type": "application/json",
                                                              "Authorization": f"Device {key}"})  # fmt: skip
                res = conn.getresponse()
                answer = res.read()
                if res.status == 202:
                    ok += json.loads(answer)["accepted"]
                    sent += 1
                else:
                    bad += 1
            except (OSError, http.client.HTTPException):
                bad += 1
                conn.close()
                conn = connection(base)
        conn.close()
        with lock:
            stored += ok
            errors += bad
            requests += sent

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    return {"stored": stored, "errors": errors, "rate": stored / elapsed, "requests": requests / elapsed}


def read_load(base: str, token: str, paths: list[str], seconds: float, clients: int) -> dict:
    latencies, errors, lock = [], 0, threading.Lock()
    stop_at = time.monotonic() + seconds

    def client(n: int) -> None:
        nonlocal errors
        conn, mine, bad, rng = connection(base), [], 0, random.Random(n)
        while time.monotonic() < stop_at:
            began = time.perf_counter()
            conn.request("GET", rng.choice(paths), headers={"Authorization": f"Bearer {token}"})
            res = conn.getresponse()
            res.read()
            bad += res.status != 200
            mine.append((time.perf_counter() - began) * 1000)
        conn.close()
        with lock:
            latencies.extend(mine)
            errors += bad

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {
        "n": len(latencies),
        "errors": errors,
        "p50": percentile(latencies, 50),
        "p95": percentile(latencies, 95),
    }


def login(base: str) -> str:
    conn = connection(base)
    conn.request("POST", "/api/auth/login", json.dumps({"username": "admin", "password": ADMIN_PASSWORD}),
                 {"Content-Type": "application/json"})  # fmt: skip
    token = json.loads(conn.getresponse().read())["token"]
    conn.close()
    return token


def run(label: str, database_url: str, args: argparse.Namespace) -> int:
    """Measure one database; returns how many requests failed (the bench then fails)."""
    env = server_env(database_url, RATELIMIT_ENABLED="0")
    setup_database(env)
    began = time.monotonic()
    ids, raw_keys = fill(database_url, args.machines, args.days)
    filled = args.machines * args.days * 288
    print(
        f"\n{label}: {filled:,} readings of {args.machines} machines loaded in {time.monotonic() - began:.0f} s"
    )
    server = AppServer(env, workers=2).start()
    try:
        rows = []
        ceiling, singles, shares = [], [], []
        for _round in range(args.rounds):
            health = run_load(server.url, "GET", "/healthz", None, {}, args.seconds, args.clients)
            one = ingest_load(server.url, raw_keys, 1, args.seconds, args.clients)
            ceiling.append(health["rps"])
            singles.append(one)
            shares.append(100 * one["requests"] / health["rps"])
        share = median(shares)
        one_rps = median([r["requests"] for r in singles])
        one_errors = sum(r["errors"] for r in singles) + sum(1 for r in singles if not r["stored"])
        rows.append(["GET /healthz (ceiling)", f"{median(ceiling):,.0f} requests/s", ""])
        rows.append(
            [
                "POST /api/telemetry, one reading",
                f"{one_rps:,.0f} requests/s = readings/s, {share:.0f} % of /healthz",
                f"{one_errors} errors",
            ]
        )
        summary(
            "telemetry",
            f"{label}: HTTP one reading a request",
            f"{one_rps:,.0f} readings/s, {share:.0f} % of /healthz ({median(ceiling):,.0f}/s), {one_errors} errors",
        )
        r = ingest_load(server.url, raw_keys, 100, args.seconds, args.clients)
        rows.append(
            ["POST /api/telemetry, batch 100", f"{r['rate']:,.0f} readings/s", f"{r['errors']} errors"]
        )
        summary(
            "telemetry", f"{label}: ingest, batch 100", f"{r['rate']:,.0f} readings/s, {r['errors']} errors"
        )
        failures = one_errors + r["errors"] + (not r["stored"])
        token = login(server.url)
        now = datetime.now(UTC)
        chart = (
            f"metric=temperature_c&bucket=1h&from={(now - timedelta(days=30)).strftime('%Y-%m-%dT%H:%M:%SZ')}"
        )
        for case, paths in (
            ("GET .../telemetry/latest", [f"/api/machines/{i}/telemetry/latest" for i in ids]),
            ("GET .../telemetry 30 d, 1h", [f"/api/machines/{i}/telemetry?{chart}" for i in ids]),
        ):
            r = read_load(server.url, token, paths, args.seconds, args.read_clients)
            rows.append(
                [
                    case,
                    f"p50 {r['p50']:.1f} ms, p95 {r['p95']:.1f} ms",
                    f"{r['n']} requests, {r['errors']} errors",
                ]
            )
            summary("telemetry", f"{label}: {case}", f"p50 {r['p50']:.1f} / p95 {r['p95']:.1f} ms")
            failures += r["errors"] + (not r["n"])
        print(table(["case", "figure", "notes"], rows))
    finally:
        server.stop()
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--machines", type=int, default=10)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of /healthz and one reading")
    # 32 devices at once (the fleet is thousands): a reading's commit waits for the disk, so how
    # many requests are in flight together bounds that rate (docs/performance.md, Telemetry).
    parser.add_argument(
        "--clients", type=int, default=32, help="keep-alive clients of /healthz and ingestion"
    )
    parser.add_argument("--read-clients", type=int, default=2, help="read clients (one per worker)")
    parser.add_argument("--only", choices=("sqlite", "mysql"))
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the bench works")
    args = parser.parse_args()
    if args.smoke:
        args.machines, args.days, args.seconds, args.rounds, args.clients = 2, 1, 0.5, 1, 2
    args.machines = max(args.machines, args.clients)  # a machine per client at least: no shared rows
    print(
        f"Telemetry benchmark: gunicorn 2 workers, {args.clients} ingest clients, "
        f"{args.read_clients} read clients, {os.cpu_count()} CPUs"
    )
    failures = 0
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory(prefix="sibol-bench-") as folder:
            failures += run("SQLite", f"sqlite:///{folder}/bench.sqlite3", args)
    if args.only in (None, "mysql"):
        url, drop = mysql_database(MYSQL_DB)
        try:
            failures += run("MariaDB", url, args)
        finally:
            drop()
    if failures:
        print(f"\n{failures} requests failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
