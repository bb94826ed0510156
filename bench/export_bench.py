"""CSV export of the machines list: memory, time and size at 1/10 of 120,305 machines and at all.

    .venv/bin/python bench/export_bench.py [--count 120305] [--only sqlite|mysql]

Each database is built fresh (a temporary SQLite file; the MariaDB database sibol_bench_export
at SIBOL_BENCH_MYSQL_URL, default mysql://root@127.0.0.1:3306, created and dropped here) with
bench/machines_bench.py's builder: first a tenth of the machines, exported; then the rest added
and everything exported again. Each export is GET /api/machines?format=csv through the Flask
test client, unbuffered (the body read piece by piece and thrown away, as a socket would send it):
routing, access, the query, the rows and the CSV, everything but the network.

Per export: the time (untraced run), the bytes, and the peak of Python's allocations during it
(tracemalloc, a second run) with the growth of the process's peak RSS. Streaming in constant
memory means the all-rows peak stays near the tenth's (ratio near 1), where building the file in
memory would grow it ten times.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import mysql_database, summary  # noqa: E402
from machines_bench import build  # noqa: E402

from sibol.extensions import db  # noqa: E402
from sibol.machines.seed import DEFAULT_GENERATED, generate_machines  # noqa: E402

MYSQL_DB = "sibol_bench_export"
URL = "/api/machines?format=csv"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def export_once(client, headers: dict) -> tuple[int, int]:
    """(bytes, rows) of one export, read piece by piece."""
    response = client.get(URL, headers=headers, buffered=False)
    assert response.status_code == 200, response.status_code
    size = lines = 0
    for piece in response.response:
        size += len(piece)
        lines += piece.count(b"\r\n")
    response.close()
    return size, lines - 1  # less the header row


def measure(app, token: str) -> dict:
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    gc.collect()
    started = time.perf_counter()
    size, rows = export_once(client, headers)
    seconds = time.perf_counter() - started
    rss_before = peak_rss_mb()
    gc.collect()
    tracemalloc.start()
    export_once(client, headers)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "rows": rows,
        "bytes": size,
        "seconds": seconds,
        "peak_mb": peak / 2**20,
        "rss_growth_mb": peak_rss_mb() - rss_before,
    }


def run(name: str, url: str, count: int) -> None:
    tenth = count // 10
    app, token, _ = build(url, tenth)
    with app.app_context():
        small = measure(app, token)
        generate_machines(count - tenth)
        large = measure(app, token)
        db.engine.dispose()
    print(f"\n{name}")
    for label, m in (("1/10", small), ("all", large)):
        print(
            f"  {label:>4}: {m['rows']:>7,} rows, {m['bytes'] / 2**20:6.1f} MB of CSV in {m['seconds']:5.2f} s "
            f"({m['rows'] / m['seconds']:,.0f} rows/s); peak traced {m['peak_mb']:.2f} MB, "
            f"peak RSS growth {m['rss_growth_mb']:.1f} MB"
        )
    ratio = large["peak_mb"] / small["peak_mb"]
    print(f"  peak memory all / tenth: {ratio:.2f} (rows x{large['rows'] / small['rows']:.0f})")
    summary(
        "export",
        f"{name}: machines CSV, {large['rows']:,} rows",
        f"{large['seconds']:.1f} s, {large['bytes'] / 2**20:.1f} MB; peak {large['peak_mb']:.2f} MB "
        f"vs {small['peak_mb']:.2f} MB at 1/10 (x{ratio:.2f})",
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=DEFAULT_GENERATED)
    parser.add_argument("--only", choices=("sqlite", "mysql"))
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the bench works")
    args = parser.parse_args(argv or [])
    if args.smoke:
        args.count = 500
    print(
        f"CSV export benchmark: {args.count:,} machines, through the Flask test client; {os.cpu_count()} CPUs"
    )
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory(prefix="sibol-bench-") as folder:
            run("SQLite (temporary file)", f"sqlite:///{folder}/bench.sqlite3", args.count)
    if args.only in (None, "mysql"):
        made = mysql_database(MYSQL_DB)
        if made is not None:
            url, drop = made
            try:
                run(f"MariaDB ({MYSQL_DB}, dropped afterwards)", url, args.count)
            finally:
                drop()


if __name__ == "__main__":
    main(sys.argv[1:])
