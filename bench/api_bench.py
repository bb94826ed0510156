"""API latency and throughput against the production server (gunicorn, 2 workers).

A closed-loop load generator: C client threads, each on its own keep-alive connection, send
requests back to back for D seconds per endpoint. /healthz is measured the same way as the
ceiling of this server on this machine, and every endpoint is also given as a share of it in
the same run (the aim is 60 % for the authenticated reads). Rate limiting is switched off.

    .venv/bin/python bench/api_bench.py [--seconds 3] [--rounds 3] [--clients 8]
"""

from __future__ import annotations

import argparse
import http.client
import json
import threading
import time
from urllib.parse import urlsplit

from common import ADMIN_PASSWORD, median, percentile, start_server, summary, table


def login_token(base: str) -> str:
    conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=30)
    conn.request(
        "POST",
        "/api/auth/login",
        json.dumps({"username": "admin", "password": ADMIN_PASSWORD}),
        {"Content-Type": "application/json"},
    )
    res = conn.getresponse()
    body = json.loads(res.read())
    conn.close()
    return body["token"]


def run_load(
    base: str, method: str, path: str, body: dict | None, headers: dict, seconds: float, clients: int
) -> dict:
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds
    payload = json.dumps(body) if body is not None else None

    def client() -> None:
        nonlocal errors
        conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=30)
        mine: list[float] = []
        bad = 0
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            try:
                conn.request(method, path, payload, headers)
                res = conn.getresponse()
                res.read()
                if res.status >= 400:
                    bad += 1
                if res.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=30)
            except (OSError, http.client.HTTPException):
                bad += 1
                conn.close()
                conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=30)
                continue
            mine.append((time.perf_counter() - started) * 1000)
        conn.close()
        with lock:
            latencies.extend(mine)
            errors += bad

    started = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    return {
        "requests": len(latencies),
        "errors": errors,
        "rps": len(latencies) / elapsed,
        "p50": percentile(latencies, 50),
        "p95": percentile(latencies, 95),
        "p99": percentile(latencies, 99),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the bench works")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.rounds, args.clients = 0.5, 1, 2
    server, _tmp = start_server(workers=2, RATELIMIT_ENABLED="0")
    try:
        token = login_token(server.url)
        auth = {"Authorization": f"Bearer {token}"}
        json_headers = {"Content-Type": "application/json"}
        cases = [
            ("GET /healthz (ceiling)", "GET", "/healthz", None, {}),
            (
                "POST /api/auth/login",
                "POST",
                "/api/auth/login",
                {"username": "admin", "password": ADMIN_PASSWORD},
                json_headers,
            ),
            ("GET /api/modules/allowed", "GET", "/api/modules/allowed", None, auth),
            ("GET /api/admin/accounts", "GET", "/api/admin/accounts", None, auth),
            ("GET /api/machines?page=1", "GET", "/api/machines?page=1&per_page=10", None, auth),
        ]
        # Rounds: every endpoint in turn, `rounds` times; an endpoint's share of /healthz is taken
        # within each round (so a busy moment of this shared machine weighs on both) and the
        # median over rounds is reported.
        results: dict[str, list[dict]] = {label: [] for label, *_ in cases}
        shares: dict[str, list[float]] = {label: [] for label, *_ in cases}
        for _round in range(args.rounds):
            ceiling = None
            for label, method, path, body, headers in cases:
                r = run_load(server.url, method, path, body, headers, args.seconds, args.clients)
                ceiling = ceiling or r["rps"]
                results[label].append(r)
                shares[label].append(100 * r["rps"] / ceiling)
        rows = []
        for label, *_ in cases:
            runs = results[label]
            rps = median([r["rps"] for r in runs])
            share = f"{median(shares[label]):.0f} %"
            p50, p95, p99 = (median([r[k] for r in runs]) for k in ("p50", "p95", "p99"))
            errors = sum(r["errors"] for r in runs)
            rows.append(
                [
                    label,
                    sum(r["requests"] for r in runs),
                    errors,
                    f"{rps:.0f}",
                    share,
                    f"{p50:.1f}",
                    f"{p95:.1f}",
                    f"{p99:.1f}",
                ]
            )
            summary(
                "api (gunicorn, 2 workers)",
                label,
                f"{rps:.0f} req/s ({share} of /healthz), p50 {p50:.1f} / p95 {p95:.1f} / p99 {p99:.1f} ms, "
                f"{errors} errors",
            )
        print(
            f"API under load: gunicorn 2 workers, SQLite, {args.clients} keep-alive clients, "
            f"{args.rounds} rounds of {args.seconds:.0f} s per endpoint (medians over rounds)"
        )
        print(
            table(
                ["endpoint", "requests", "errors", "req/s", "of /healthz", "p50 ms", "p95 ms", "p99 ms"], rows
            )
        )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
