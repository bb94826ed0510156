"""Crash safety: SIGKILL the production server mid-stream; every acknowledged write survives."""

from __future__ import annotations

import threading
import time

import requests
from sqlalchemy import create_engine, text

from tests.support.servers import (
    AppServer,
    admin_headers,
    drop_database,
    first_area_id,
    fresh_database,
    server_env,
    setup_database,
)

WRITERS = 6


def test_acknowledged_writes_survive_sigkill(tmp_path):
    url = fresh_database(tmp_path, "crash")
    env = server_env(url)
    setup_database(env)
    server = AppServer(env, workers=2, log=tmp_path / "server.log").start()
    headers = admin_headers(server.url)
    area_id = first_area_id(server.url, headers)

    acknowledged: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()

    def writer(n: int) -> None:
        session = requests.Session()
        i = 0
        while not stop.is_set():
            name = f"crash-{n}-{i}"
            i += 1
            try:
                res = session.post(
                    f"{server.url}/api/machines",
                    json={"areaId": area_id, "name": name},
                    headers=headers,
                    timeout=5,
                )
            except requests.RequestException:
                continue  # in flight when the server died: not acknowledged
            if res.status_code in (200, 201):
                with lock:
                    acknowledged.append(name)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 20
    while len(acknowledged) < 60 and time.monotonic() < deadline:
        time.sleep(0.05)
    server.kill()  # mid-stream: the writers are still sending
    stop.set()
    for t in threads:
        t.join(timeout=10)
    assert len(acknowledged) >= 60, "the server acknowledged too few writes to test anything"

    restarted = AppServer(env, workers=2, log=tmp_path / "server2.log").start()
    try:
        engine = create_engine(env["DATABASE_URL"].replace("mysql://", "mysql+mysqldb://", 1))
        with engine.connect() as conn:
            stored = set(conn.execute(text("SELECT name FROM machines WHERE name LIKE 'crash-%'")).scalars())
            if engine.dialect.name == "sqlite":
                assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
            else:
                for row in conn.execute(text("CHECK TABLE machines, accounts, api_tokens")):
                    assert row[-1] in ("OK", "Table is already up to date"), row
        engine.dispose()
        missing = set(acknowledged) - stored
        assert not missing, f"{len(missing)} acknowledged writes lost, e.g. {sorted(missing)[:5]}"
        again = requests.get(
            f"{restarted.url}/api/machines",
            params={"q": acknowledged[0], "page": 1},
            headers=headers,
            timeout=10,
        )
        assert again.status_code == 200  # the token issued before the crash still works
    finally:
        restarted.stop()
        drop_database(url)
