"""Telemetry: ingestion throughput and read-back latency against gunicorn (2 workers), on SQLite
and (when reachable) MariaDB.

    .venv/bin/python bench/telemetry_bench.py [--machines 10] [--days 30] [--seconds 4] [--clients 8]
        [--only sqlite|mysql]

For each database: a fresh schema (flask setup), --machines machines with device keys, then
--days of 5-minute readings per machine bulk-loaded with their hourly and daily rollups (100
machines x 30 days = 864,000 readings: `--machines 100`). Then, with rate limiting off:
  * POST /api/telemetry, batches of 1 and of 100, --clients keep-alive clients for --seconds:
    readings stored per second;
  * GET /api/machines/{id}/telemetry/latest and a 30-day bucket=1h chart of one metric, random
    machines, --read-clients at once (default 2, one per worker): p50 / p95 latency.
MariaDB: SIBOL_BENCH_MYSQL_URL (default mysql://root@127.0.0.1:3306), database
sibol_bench_telemetry, created and dropped.
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

from common import ADMIN_PASSWORD, mysql_database, percentile, summary, table
from sqlalchemy import insert

from tests.support.servers import AppServer, server_env, setup_database

MYSQL_DB = "sibol_bench_telemetry"


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
    from sibol.extensions import db
    from sibol.models import Area, Machine
    from sibol.models.telemetry import Reading, Rollup
    from sibol.telemetry import keys

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
            rows, hours, day_cells = [], {}, {}
            for k in range(steps):
                ts = start + timedelta(minutes=5 * k)
                values = fake_values(rng)
                rows.append({"machine_id": machine_id, "ts": ts, **values})
                values["power_w"] = values["voltage_v"] * values["current_a"]
                for key, cells in ((ts.replace(minute=0), hours), (ts.replace(hour=0, minute=0), day_cells)):
                    for metric, v in values.items():
                        c = cells.setdefault((key, metric), [v, v, 0.0, 0])
                        c[0], c[1], c[2], c[3] = min(c[0], v), max(c[1], v), c[2] + v, c[3] + 1
            db.session.execute(insert(Reading), rows)
            roll = [
                {"machine_id": machine_id, "period": p, "start": k, "metric": m, "min": c[0], "max": c[1],
                 "sum": c[2], "count": c[3]}
                for p, cells in (("h", hours), ("d", day_cells))
                for (k, m), c in cells.items()
            ]  # fmt: skip
            db.session.execute(insert(Rollup), roll)
            db.session.commit()
        db.engine.dispose()
    return ids, raw_keys


def connection(base: str) -> http.client.HTTPConnection:
    return http.client.HTTPConnection(urlsplit(base).netloc, timeout=60)


def ingest_load(base: str, raw_keys: list[str], batch: int, seconds: float, clients: int) -> dict:
    """Each client posts for its own machines (no two clients share one), `batch` readings a
    request, each a fresh second so none is a duplicate."""
    stored, errors, lock = 0, 0, threading.Lock()
    stop_at = time.monotonic() + seconds
    origin = datetime.now(UTC) - timedelta(days=29)

    def client(n: int) -> None:
        nonlocal stored, errors
        mine = raw_keys[n::clients] or raw_keys[:1]
        conn, ok, bad, k = connection(base), 0, 0, 0
        rng = random.Random(n)
        while time.monotonic() < stop_at:
            key = mine[k % len(mine)]
            first = (k // len(mine)) * batch
            readings = [
                {
                    "ts": int((origin + timedelta(seconds=60 * (first + j) + 17)).timestamp() * 1000),
                    **fake_values(rng),
                }
                for j in range(batch)
            ]
            body = json.dumps(readings[0] if batch == 1 else {"readings": readings})
            k += 1
            try:
                conn.request("POST", "/api/telemetry", body, {"Content-Type": "application/json",
                                                              "Authorization": f"Device {key}"})  # fmt: skip
                res = conn.getresponse()
                answer = res.read()
                if res.status == 202:
                    ok += json.loads(answer)["accepted"]
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

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"stored": stored, "errors": errors, "rate": stored / (time.monotonic() - started)}


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


def run(label: str, database_url: str, args: argparse.Namespace) -> None:
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
        for batch in (1, 100):
            r = ingest_load(server.url, raw_keys, batch, args.seconds, args.clients)
            rows.append(
                [
                    f"POST /api/telemetry, batch {batch}",
                    f"{r['rate']:,.0f} readings/s",
                    f"{r['errors']} errors",
                ]
            )
            summary(
                "telemetry",
                f"{label}: ingest, batch {batch}",
                f"{r['rate']:,.0f} readings/s, {r['errors']} errors",
            )
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
        print(table(["case", "figure", "notes"], rows))
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--machines", type=int, default=10)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--clients", type=int, default=8, help="ingest clients")
    parser.add_argument("--read-clients", type=int, default=2, help="read clients (one per worker)")
    parser.add_argument("--only", choices=("sqlite", "mysql"))
    args = parser.parse_args()
    print(
        f"Telemetry benchmark: gunicorn 2 workers, {args.clients} ingest clients, "
        f"{args.read_clients} read clients, {os.cpu_count()} CPUs"
    )
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory(prefix="sibol-bench-") as folder:
            run("SQLite", f"sqlite:///{folder}/bench.sqlite3", args)
    if args.only in (None, "mysql"):
        made = mysql_database(MYSQL_DB)
        if made is not None:
            url, drop = made
            try:
                run("MariaDB", url, args)
            finally:
                drop()


if __name__ == "__main__":
    sys.exit(main())
