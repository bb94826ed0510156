"""Machines list, search and type-ahead latency with 120,305 machines, on SQLite and MariaDB.

    .venv/bin/python bench/machines_bench.py [--count 120305] [--runs 50] [--plain-runs 5]
                                             [--only sqlite|mysql] [--smoke]

Each database is built fresh (a temporary SQLite file; the MariaDB database
sibol_bench_machines at SIBOL_BENCH_MYSQL_URL, default mysql://root@127.0.0.1:3306, created and
dropped here), filled with `generate_machines` (what `flask generate-machines` runs), then every
query goes through the Flask test client with a bearer token: routing, access check, service,
SQL and JSON, everything but the network. p50/p95 over --runs runs after 3 warm-up runs.

The plain list (GET /api/machines, no parameters: every machine, streamed) is read to its last
byte --plain-runs times for each Accept-Encoding the spec's client's browser may send (none, gzip,
Brotli): time to the last byte, bytes on the wire (as compressed), and once the peak of memory
the Python heap held while one gzip answer was served and read (tracemalloc, a run of its own).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import brotli

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import app_config, mysql_database, percentile, summary  # noqa: E402
from sqlalchemy import text  # noqa: E402

from sibol import create_app, seed  # noqa: E402
from sibol.extensions import db  # noqa: E402
from sibol.identity.tokens import issue_token  # noqa: E402
from sibol.machines.seed import DEFAULT_GENERATED, generate_machines  # noqa: E402
from sibol.models import Account, AccountStatus, Module, RoleId  # noqa: E402

MYSQL_DB = "sibol_bench_machines"

# (label, path); names are 'SIBOL {Digester|Composter|Shredder|Biogas Unit|Mixer} {n}'.
QUERIES = (
    ("first page (10 rows, with total)", "/api/machines?page=1&per_page=10"),
    ("page 500 (10 rows, with total)", "/api/machines?page=500&per_page=10"),
    ("search, few matches: q=12030", "/api/machines?q=12030&per_page=10"),
    ("search, many matches: q=digester", "/api/machines?q=digester&per_page=10"),
    ("search, all match: q=sibol", "/api/machines?q=sibol&per_page=10"),
    ("search, area name: q=purok 3", "/api/machines?q=purok%203&per_page=10"),
    ("search, many matches, page 500", "/api/machines?q=digester&page=500&per_page=10"),
    ("type-ahead: q=sibol mix, 8 rows, no total", "/api/machines?q=sibol%20mix&per_page=8&count=0"),
    ("type-ahead: q=1203, 8 rows, no total", "/api/machines?q=1203&per_page=8&count=0"),
)


def build(url: str, count: int):
    app = create_app(app_config(url))
    with app.app_context():
        db.drop_all()
        db.create_all()
        seed.reference_data()
        started = time.perf_counter()
        generate_machines(count)
        filled = time.perf_counter() - started
        account = Account(
            username="bench",
            first_name="Bench",
            last_name="Mark",
            email="bench@example.test",
            role_id=int(RoleId.STAFF),
            status=AccountStatus.ACTIVE,
            is_enabled=True,
            modules=list(db.session.scalars(db.select(Module))),
        )
        db.session.add(account)
        db.session.commit()
        token = issue_token(account)
        db.session.commit()
        if db.engine.dialect.name == "sqlite":
            with db.engine.begin() as conn:
                conn.execute(text("ANALYZE"))
        else:
            with db.engine.begin() as conn:
                conn.execute(text("ANALYZE TABLE machines, machine_terms, areas"))
    return app, token, filled


def measure(app, token: str, runs: int) -> list[tuple[str, float, float, int]]:
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    results = []
    for label, path in QUERIES:
        for _ in range(3):
            client.get(path, headers=headers)
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            res = client.get(path, headers=headers)
            times.append((time.perf_counter() - started) * 1000)
            assert res.status_code == 200, res.get_data(as_text=True)
        total = res.json["total"]
        results.append(
            (
                label,
                statistics.median(times),
                percentile(times, 95),
                total if total is not None else len(res.json["data"]),
            )
        )
    return results


PLAIN_ENCODINGS = (
    ("none", "identity", bytes),
    ("gzip", "gzip", gzip.decompress),
    ("br", "br", brotli.decompress),
)


def read_plain_list(client, headers: dict) -> tuple[int, int, bytes | None]:
    """(status, bytes on the wire) of one GET /api/machines read to its last byte, piece by piece
    as a socket would send them (nothing is kept but the count)."""
    res = client.get("/api/machines", headers=headers, buffered=False)
    wire = sum(len(piece) for piece in res.response)
    res.close()
    return res.status_code, wire, res.headers.get("Content-Encoding")


def measure_plain(app, token: str, runs: int) -> list[tuple[str, float, float, int, int]]:
    """(Accept-Encoding, p50 ms, slowest ms, bytes on the wire, machines) for the plain list."""
    client = app.test_client()
    results = []
    for label, accept, decode in PLAIN_ENCODINGS:
        headers = {"Authorization": f"Bearer {token}", "Accept-Encoding": accept}
        read_plain_list(client, headers)  # warm-up
        times, wire = [], 0
        for _ in range(runs):
            started = time.perf_counter()
            status, wire, encoding = read_plain_list(client, headers)
            times.append((time.perf_counter() - started) * 1000)
            assert status == 200 and (encoding or "identity") == accept, (status, encoding)
        body = client.get("/api/machines", headers=headers).get_data()
        results.append((label, statistics.median(times), max(times), wire, len(json.loads(decode(body)))))
    return results


def plain_peak_memory(app, token: str) -> int:
    """The most the Python heap held above its start while one gzip plain list was served and read."""
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}", "Accept-Encoding": "gzip"}
    read_plain_list(client, headers)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        read_plain_list(client, headers)
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def report_plain(name: str, results, peak: int) -> None:
    print(f"\nPlain list (GET /api/machines, streamed), {name}: read to the last byte")
    print(
        f"| {'Accept-Encoding':<16} | {'p50 ms':>8} | {'max ms':>8} | {'on the wire':>12} | {'machines':>8} |"
    )
    print(f"|{'-' * 18}|{'-' * 10}|{'-' * 10}|{'-' * 14}|{'-' * 10}|")
    for label, p50, slowest, wire, machines in results:
        print(f"| {label:<16} | {p50:>8.1f} | {slowest:>8.1f} | {wire / 1e6:>9.3f} MB | {machines:>8} |")
        summary(
            f"machines ({name.split(' ')[0]})",
            f"plain list, Accept-Encoding {label}",
            f"p50 {p50:.0f} ms, max {slowest:.0f} ms, {wire / 1e6:.3f} MB on the wire, {machines} machines",
        )
    print(f"Peak Python heap while one gzip answer was served (tracemalloc): {peak / 1e6:.1f} MB")
    summary(f"machines ({name.split(' ')[0]})", "plain list, peak Python heap (gzip)", f"{peak / 1e6:.1f} MB")


def report(name: str, results, filled: float, count: int) -> None:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    # Other work on the machine inflates every number; the load average says how much there was.
    print(f"\n{name}: {count:,} machines generated in {filled:.1f} s; load average {load}")
    print(f"| {'query':<52} | {'p50 ms':>8} | {'p95 ms':>8} | {'matches':>8} |")
    print(f"|{'-' * 54}|{'-' * 10}|{'-' * 10}|{'-' * 10}|")
    for label, p50, p95, matches in results:
        print(f"| {label:<52} | {p50:>8.1f} | {p95:>8.1f} | {matches:>8} |")
        summary(
            f"machines ({name.split(' ')[0]})",
            label,
            f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, {matches} matches",
        )


def measure_all(app, token: str, runs: int, plain_runs: int):
    with app.app_context():
        results = measure(app, token, runs)
        plain = measure_plain(app, token, plain_runs)
        peak = plain_peak_memory(app, token)
        db.engine.dispose()
    return results, plain, peak


def run_sqlite(count: int, runs: int, plain_runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="sibol-bench-") as folder:
        app, token, filled = build(f"sqlite:///{folder}/bench.sqlite3", count)
        results, plain, peak = measure_all(app, token, runs, plain_runs)
        name = "SQLite (temporary file)"
        report(name, results, filled, count)
        report_plain(name, plain, peak)


def run_mysql(count: int, runs: int, plain_runs: int) -> None:
    made = mysql_database(MYSQL_DB)
    if made is None:
        return
    url, drop = made
    try:
        app, token, filled = build(url, count)
        results, plain, peak = measure_all(app, token, runs, plain_runs)
        name = f"MariaDB ({MYSQL_DB}, dropped afterwards)"
        report(name, results, filled, count)
        report_plain(name, plain, peak)
    finally:
        drop()


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark; `argv` are this script's options (none when bench/run.py calls it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=DEFAULT_GENERATED)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--plain-runs", type=int, default=5, help="reads of the plain list per encoding")
    parser.add_argument("--only", choices=("sqlite", "mysql"))
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the bench works")
    args = parser.parse_args(argv or [])
    if args.smoke:
        args.count, args.runs, args.plain_runs = 500, 2, 1
    print(
        f"Machines benchmark: {args.count:,} machines, {args.runs} runs per query, "
        f"through the Flask test client; {os.cpu_count()} CPUs"
    )
    if args.only in (None, "sqlite"):
        run_sqlite(args.count, args.runs, args.plain_runs)
    if args.only in (None, "mysql"):
        run_mysql(args.count, args.runs, args.plain_runs)


if __name__ == "__main__":
    main(sys.argv[1:])
