"""Where a read endpoint's time goes, in-process: pyinstrument over N requests
of each endpoint through the Flask test client, on a fresh SQLite database with the sample data,
signed in with a bearer token as the benchmark's admin. Not run by `make bench`.

    .venv/bin/python bench/api_profile.py [--requests 500] [--only /api/modules/allowed] [--html DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from common import ADMIN_PASSWORD

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.support.servers import server_env, setup_database  # noqa: E402

PATHS = ["/healthz", "/api/modules/allowed", "/api/admin/accounts", "/api/machines?page=1&per_page=10"]


def main() -> int:
    from pyinstrument import Profiler

    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--quiet", action="store_true", help="times only, no call trees")
    parser.add_argument("--all", action="store_true", help="show library frames too")
    parser.add_argument("--html", help="also write an HTML profile per endpoint into this folder")
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works")
    args = parser.parse_args()
    if args.smoke:
        args.requests, args.quiet = 5, True
    tmp = Path(tempfile.mkdtemp(prefix="sibol-profile-"))
    env = server_env(f"sqlite:///{tmp / 'profile.sqlite3'}", SIBOL_SAMPLE_DATA="1", RATELIMIT_ENABLED="0")
    setup_database(env)
    os.environ.update(env)
    from sibol import create_app

    app = create_app()
    from sqlalchemy import event

    from sibol.extensions import db

    statements = [0]
    with app.app_context():
        event.listen(
            db.engine, "before_cursor_execute", lambda *a: statements.__setitem__(0, statements[0] + 1)
        )
    client = app.test_client(use_cookies=False)  # like the load generator: a bearer token, no cookie
    res = client.post("/api/auth/login", json={"username": "admin", "password": ADMIN_PASSWORD})
    token = json.loads(res.data)["token"]
    headers = {"Authorization": f"Bearer {token}"}
    for path in PATHS:
        if args.only and path.split("?")[0] not in args.only:
            continue
        hdrs = {} if path == "/healthz" else headers
        for _ in range(20):  # warm-up: imports, caches, the first connection
            assert client.get(path, headers=hdrs).status_code == 200, path
        statements[0] = 0
        client.get(path, headers=hdrs)
        queries = statements[0]
        started = time.process_time()  # CPU time: steadier than wall time on a shared machine
        for _ in range(args.requests):
            client.get(path, headers=hdrs)
        plain = (time.process_time() - started) * 1000 / args.requests
        profiler = Profiler(interval=0.0005)
        started = time.perf_counter()
        profiler.start()
        for _ in range(args.requests):
            client.get(path, headers=hdrs)
        profiler.stop()
        per = (time.perf_counter() - started) * 1000 / args.requests
        print(
            f"\n=== {path}: {queries} SQL statements, {plain:.2f} ms CPU per request in-process ({per:.2f} ms wall with the profiler) ==="
        )
        if not args.quiet:
            print(profiler.output_text(unicode=True, color=False, show_all=args.all))
        if args.html:
            name = path.strip("/").split("?")[0].replace("/", "_") + ".html"
            Path(args.html).mkdir(parents=True, exist_ok=True)
            (Path(args.html) / name).write_text(profiler.output_html())
    return 0


if __name__ == "__main__":
    sys.exit(main())
