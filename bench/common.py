"""Shared by the benchmarks: a production server (gunicorn) on a fresh database, and statistics."""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.servers import AppServer, server_env, setup_database  # noqa: E402

ADMIN_PASSWORD = "Admin-pass1!"  # noqa: S105 - the benchmark's own throwaway admin


def start_server(workers: int = 2, sample: bool = True, **env_extra: str) -> tuple[AppServer, Path]:
    tmp = Path(tempfile.mkdtemp(prefix="sibol-bench-"))
    env = server_env(
        f"sqlite:///{tmp / 'bench.sqlite3'}", SIBOL_SAMPLE_DATA="1" if sample else "0", **env_extra
    )
    setup_database(env)
    return AppServer(env, workers=workers, log=tmp / "server.log").start(), tmp


def app_config(url: str, **extra) -> dict:
    """The settings of an in-process app that a benchmark drives on the database at `url`: no
    sample data, no rate limits, no mail, no Vite dev server."""
    return {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": url,
        "SECRET_KEY": "bench",
        "SIBOL_SAMPLE_DATA": False,
        "SIBOL_IGNORE_HOT_FILE": True,
        "RATELIMIT_ENABLED": False,
        "MAIL_SUPPRESS_SEND": True,
        **extra,
    }


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * pct / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(headers: list[str], rows: list[list]) -> str:
    cells = [headers] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in cells]
    lines.insert(1, "-|-".join("-" * w for w in widths))
    return "\n".join(lines)


def summary(benchmark: str, case: str, figures: str) -> None:
    """Add a row to the one table `make bench` prints at the end (bench/run.py)."""
    import json
    import os

    target = os.environ.get("SIBOL_BENCH_SUMMARY")
    if target:
        with open(target, "a") as fh:
            fh.write(json.dumps({"benchmark": benchmark, "case": case, "figures": figures}) + "\n")


def mysql_database(name: str):
    """A fresh MariaDB database named `name` plus this process's id (so benches running at once
    never share one) at SIBOL_BENCH_MYSQL_URL (default mysql://root@127.0.0.1:3306): (url, drop).
    Exits with an error when the server or the driver is missing: a bench that cannot measure
    what it promises fails (`--only sqlite` leaves MariaDB out on purpose)."""
    import os

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"{name}_{os.getpid()}"
    server_url = make_url(os.environ.get("SIBOL_BENCH_MYSQL_URL", "mysql://root@127.0.0.1:3306"))
    try:
        server = create_engine(server_url.set(database=None))  # ImportError without mysqlclient
        with server.begin() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS `{name}`"))
            conn.execute(text(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4"))
    except Exception as err:  # noqa: BLE001 - any failure means MariaDB cannot be measured here
        raise SystemExit(
            f"MariaDB is not usable at {server_url.render_as_string()}: {err.__class__.__name__}: {err}\n"
            "Start it (or set SIBOL_BENCH_MYSQL_URL), or pass --only sqlite to leave it out."
        ) from err

    def drop() -> None:
        with server.begin() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS `{name}`"))
        server.dispose()

    url = server_url.set(database=name, query={"charset": "utf8mb4"})
    return url.render_as_string(hide_password=False), drop
