"""Machines list, search and type-ahead latency with 120,305 machines, on SQLite and MariaDB.

    .venv/bin/python bench/machines_bench.py [--count 120305] [--runs 50] [--only sqlite|mysql]

Each database is built fresh (a temporary SQLite file; the MariaDB database
sibol_bench_machines at SIBOL_BENCH_MYSQL_URL, default mysql://root@127.0.0.1:3306, created and
dropped here), filled with `generate_machines` (what `flask generate-machines` runs), then every
query goes through the Flask test client with a bearer token: routing, access check, service,
SQL and JSON, everything but the network. p50/p95 over --runs runs after 3 warm-up runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

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
    started = time.perf_counter()
    res = client.get("/api/machines", headers=headers)
    plain_ms = (time.perf_counter() - started) * 1000
    results.append(
        (
            f"plain list, no parameters ({len(res.data) / 1e6:.1f} MB JSON), 1 run",
            plain_ms,
            plain_ms,
            len(res.json),
        )
    )
    return results


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


def run_sqlite(count: int, runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="sibol-bench-") as folder:
        app, token, filled = build(f"sqlite:///{folder}/bench.sqlite3", count)
        with app.app_context():
            results = measure(app, token, runs)
            db.engine.dispose()
        report("SQLite (temporary file)", results, filled, count)


def run_mysql(count: int, runs: int) -> None:
    made = mysql_database(MYSQL_DB)
    if made is None:
        return
    url, drop = made
    try:
        app, token, filled = build(url, count)
        with app.app_context():
            results = measure(app, token, runs)
            db.engine.dispose()
        report(f"MariaDB ({MYSQL_DB}, dropped afterwards)", results, filled, count)
    finally:
        drop()


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark; `argv` are this script's options (none when bench/run.py calls it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=DEFAULT_GENERATED)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--only", choices=("sqlite", "mysql"))
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the bench works")
    args = parser.parse_args(argv or [])
    if args.smoke:
        args.count, args.runs = 500, 2
    print(
        f"Machines benchmark: {args.count:,} machines, {args.runs} runs per query, "
        f"through the Flask test client; {os.cpu_count()} CPUs"
    )
    if args.only in (None, "sqlite"):
        run_sqlite(args.count, args.runs)
    if args.only in (None, "mysql"):
        run_mysql(args.count, args.runs)


if __name__ == "__main__":
    main(sys.argv[1:])
