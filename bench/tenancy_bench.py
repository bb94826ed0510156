"""Many barangays: a barangay Admin's lists and the city dashboard with 1,000 barangays,
120,305 machines and 200,000 accounts, on SQLite and MariaDB.

    .venv/bin/python bench/tenancy_bench.py [--barangays 1000] [--machines 120305]
        [--accounts 200000] [--runs 50] [--only sqlite|mysql]

Each database is built fresh (a temporary SQLite file; the MariaDB database sibol_bench_tenancy at
SIBOL_BENCH_MYSQL_URL, default mysql://root@127.0.0.1:3306, created and dropped here) and filled
with bulk inserts in chunks: the barangays, five areas each, the machines spread over the areas
(`generate_machines`, what `flask generate-machines` runs), the accounts spread over the
barangays (a tenth of them awaiting approval) with their role's modules, and 30 days of waste
collections per barangay. Every request goes through the Flask test client: routing, the access
check, the tenant scope, the service, SQL and the JSON or HTML; not the network. p50/p95 over
--runs requests after 3 warm-up requests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import app_config, mysql_database, percentile, summary, table  # noqa: E402
from sqlalchemy import Table, func, insert, inspect, select, text, update  # noqa: E402

from sibol import create_app, seed  # noqa: E402
from sibol.city.service import forget_city_totals  # noqa: E402
from sibol.extensions import db  # noqa: E402
from sibol.identity.passwords import hash_password  # noqa: E402
from sibol.identity.tokens import issue_token  # noqa: E402
from sibol.machines.seed import DEFAULT_GENERATED, generate_machines  # noqa: E402
from sibol.models import (  # noqa: E402
    ROLE_DEFAULT_MODULES,
    Account,
    AccountStatus,
    Area,
    Barangay,
    Role,
    RoleId,
    account_modules,
    utcnow,
)
from sibol.models.household import WasteCollection  # noqa: E402

MYSQL_DB = "sibol_bench_tenancy"
AREAS_PER_BARANGAY = 5
WASTE_DAYS = 30
CHUNK = 5_000
ROLES = (RoleId.HOUSEHOLD, RoleId.HOUSEHOLD, RoleId.HOUSEHOLD, RoleId.OPERATOR, RoleId.STAFF)
CITY_ADMIN_ROLE = 5  # role 5 sees every barangay (an Admin until it exists)

# (label, who, path); "barangay" is an Admin of one barangay, "city" the City Admin.
RECOUNTED = "city dashboard API, recounted"
QUERIES = (
    ("accounts API, page 1", "barangay", "/api/admin/accounts?page=1&per_page=10"),
    ("accounts API, search", "barangay", "/api/admin/accounts?q=user1&per_page=10"),
    ("accounts page /admin", "barangay", "/admin"),
    ("machines API, page 1", "barangay", "/api/machines?page=1&per_page=10"),
    ("machines API, search", "barangay", "/api/machines?q=digester&per_page=10"),
    ("machines page /sibol-machines", "barangay", "/sibol-machines"),
    ("barangay dashboard API", "barangay", "/api/dashboard/summary"),
    ("city dashboard API", "city", "/api/city/dashboard"),
    ("city dashboard page /city", "city", "/city"),
    # The same with the city-wide totals counted on every call (the summary forgotten first):
    # what the first request after a write or after the minute pays.
    (RECOUNTED, "city", "/api/city/dashboard"),
    ("city dashboard page, recounted", "city", "/city"),
    ("barangay picker page", "city", "/city/barangay-filter/choose?q=barangay+05&page=2"),
)


def fill(barangays: int, machines: int, accounts: int) -> dict[str, float]:
    """Bulk-inserts everything; returns seconds per part."""
    took: dict[str, float] = {}
    started = time.perf_counter()
    have = db.session.scalar(select(func.count(Barangay.id))) or 0
    db.session.execute(
        insert(Barangay), [{"name": f"Barangay {n:04d}"} for n in range(have + 1, barangays + 1)]
    )
    ids = list(db.session.scalars(select(Barangay.id).order_by(Barangay.id)))
    db.session.execute(
        update(Area).where(Area.barangay_id.is_(None)).values(barangay_id=ids[0])
    )  # the seeded areas belong to the first barangay
    area_rows = [
        {"name": f"Purok {k} of barangay {b}", "barangay_id": b}
        for b in ids[1:]
        for k in range(1, AREAS_PER_BARANGAY + 1)
    ]
    for first in range(0, len(area_rows), CHUNK):
        db.session.execute(insert(Area), area_rows[first : first + CHUNK])
    db.session.commit()
    took["barangays and areas"] = time.perf_counter() - started

    started = time.perf_counter()
    generate_machines(machines)  # each machine (and its search terms) in its area's barangay
    took["machines"] = time.perf_counter() - started

    started = time.perf_counter()
    password = hash_password("Bench-pass1!")
    now = utcnow()
    accounts_table: Table = Account.__table__  # type: ignore[assignment]
    start = (db.session.scalar(select(func.max(Account.id))) or 0) + 1
    for first in range(start, start + accounts, CHUNK):
        rows: list[dict[str, Any]] = []
        links: list[dict[str, int]] = []
        for i in range(first, min(first + CHUNK, start + accounts)):
            # Round-robin over the barangays; the role and status vary inside each barangay.
            turn = i // len(ids)
            role = ROLES[turn % len(ROLES)]
            rows.append(
                {
                    "id": i,
                    "username": f"user{i}",
                    "first_name": "Juan",
                    "last_name": f"Dela Cruz {i}",
                    "email": f"user{i}@example.test",
                    "barangay_id": ids[i % len(ids)],
                    "role_id": int(role),
                    "status": AccountStatus.PENDING if turn % 10 == 0 else AccountStatus.ACTIVE,
                    "is_enabled": True,
                    "password_hash": password,
                    "session_epoch": 0,
                    "is_sso": False,
                    "created_at": now,
                    "updated_at": now,
                }
            )
            links.extend({"account_id": i, "module_id": m} for m in ROLE_DEFAULT_MODULES[role])
        db.session.execute(insert(accounts_table), rows)
        db.session.execute(insert(account_modules), links)
        db.session.commit()
    took["accounts"] = time.perf_counter() - started

    started = time.perf_counter()
    waste_columns = inspect(WasteCollection).columns
    today = date.today()
    rows = []
    for b in ids:
        for d in range(WASTE_DAYS):
            row: dict[str, Any] = {
                "street": f"Street {b}",
                "collected_on": today - timedelta(days=d),
                "weight_g": 1000 + (b * 7 + d * 13) % 5000,
                "created_at": now,
            }
            if "barangay_id" in waste_columns:
                row["barangay_id"] = b
            rows.append(row)
    for first in range(0, len(rows), CHUNK):
        db.session.execute(insert(WasteCollection), rows[first : first + CHUNK])
    db.session.commit()
    took["waste collections"] = time.perf_counter() - started
    return took


def caller(role: int, barangay_id: int | None, name: str) -> Account:
    from sqlalchemy import select as sel

    from sibol.models import Module

    account = Account(
        username=name,
        first_name="Bench",
        last_name=name.title(),
        email=f"{name}@example.test",
        role_id=role,
        barangay_id=barangay_id,
        status=AccountStatus.ACTIVE,
        is_enabled=True,
        modules=list(db.session.scalars(sel(Module))),
    )
    db.session.add(account)
    db.session.commit()
    return account


def build(url: str, barangays: int, machines: int, accounts: int):
    app = create_app(app_config(url, WTF_CSRF_ENABLED=False))
    with app.app_context():
        db.drop_all()
        db.create_all()
        seed.reference_data()
        took = fill(barangays, machines, accounts)
        middle = db.session.scalar(select(Barangay.id).order_by(Barangay.id).offset(barangays // 2).limit(1))
        city_role = CITY_ADMIN_ROLE if db.session.get(Role, CITY_ADMIN_ROLE) else int(RoleId.ADMIN)
        who = {
            "barangay": caller(int(RoleId.ADMIN), middle, "bench_barangay_admin"),
            "city": caller(city_role, None, "bench_city_admin"),
        }
        if db.engine.dialect.name == "sqlite":
            with db.engine.begin() as conn:
                conn.execute(text("ANALYZE"))
        else:
            with db.engine.begin() as conn:
                names = ", ".join(t.name for t in db.metadata.sorted_tables)
                conn.execute(text(f"ANALYZE TABLE {names}"))
        sessions = {key: (account.id, issue_token(account)) for key, account in who.items()}
        db.session.commit()
    return app, sessions, took


def clients(app, sessions: dict) -> dict:
    """Per caller: (API client and headers, page client)."""
    from tests.factories_admin import session_client

    out = {}
    for key, (account_id, token) in sessions.items():
        account = db.session.get(Account, account_id)
        out[key] = (app.test_client(), {"Authorization": f"Bearer {token}"}, session_client(app, account))
    return out


def measure(app, sessions: dict, runs: int) -> list[list]:
    results = []
    callers = clients(app, sessions)
    for label, who, path in QUERIES:
        api_client, headers, page_client = callers[who]
        is_api = path.startswith("/api/")

        recount = "recounted" in label

        def get(
            api_client=api_client,
            headers=headers,
            page_client=page_client,
            is_api=is_api,
            path=path,
            recount=recount,
        ):
            if recount:
                forget_city_totals(app)
            return api_client.get(path, headers=headers) if is_api else page_client.get(path)

        for _ in range(3):
            get()
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            res = get()
            times.append((time.perf_counter() - started) * 1000)
            assert res.status_code == 200, f"{path}: {res.status_code} {res.get_data(as_text=True)[:300]}"
        total = res.json.get("total", "") if is_api and isinstance(res.json, dict) else ""
        size = f"{len(res.get_data()) / 1024:.1f}"
        results.append(
            [label, path, f"{statistics.median(times):.1f}", f"{percentile(times, 95):.1f}", total, size]
        )
    return results


def report(name: str, results, took: dict[str, float], args) -> None:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    filled = "; ".join(f"{k} {v:.1f} s" for k, v in took.items())
    print(
        f"\n{name}: {args.barangays:,} barangays, {args.machines:,} machines, {args.accounts:,} accounts "
        f"({filled}); load average {load}"
    )
    print(table(["query", "path", "p50 ms", "p95 ms", "rows in scope", "KB"], results))
    for label, _path, p50, p95, _total, _size in results:
        flag = "" if float(p95) < 100 else " (over 100 ms)"
        summary(f"tenancy ({name.split(' ')[0]})", label, f"p50 {p50} ms, p95 {p95} ms{flag}")


def run(url: str, name: str, args) -> None:
    app, sessions, took = build(url, args.barangays, args.machines, args.accounts)
    with app.app_context():
        results = measure(app, sessions, args.runs)
        db.session.remove()
        db.engine.dispose()
    report(name, results, took, args)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark; `argv` are this script's options (none when bench/run.py calls it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--barangays", type=int, default=1000)
    parser.add_argument("--machines", type=int, default=DEFAULT_GENERATED)
    parser.add_argument("--accounts", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--only", choices=("sqlite", "mysql"))
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the bench works")
    args = parser.parse_args(argv or [])
    if args.smoke:
        args.barangays, args.machines, args.accounts, args.runs = 3, 60, 60, 2
    print(
        f"Tenancy benchmark: {args.runs} requests per query after 3 warm-up requests, "
        f"through the Flask test client; {os.cpu_count()} CPUs"
    )
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory(prefix="sibol-bench-") as folder:
            run(f"sqlite:///{folder}/bench.sqlite3", "SQLite (temporary file)", args)
    if args.only in (None, "mysql"):
        made = mysql_database(MYSQL_DB)
        if made is not None:
            url, drop = made
            try:
                run(url, f"MariaDB ({MYSQL_DB}, dropped afterwards)", args)
            finally:
                drop()


if __name__ == "__main__":
    main(sys.argv[1:])
