"""The Redis a test may use: the one SIBOL_TEST_REDIS_URL names, else a private redis-server.

Never a Redis that merely happens to run on the machine (6379 may be someone else's data): the
private one listens on a free loopback port, keeps its files in the test's own folder, saves
nothing to disk, and is stopped when the test ends. Without redis-server (and no URL named) the
test skips locally and fails in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.servers import free_port, stop_group

TEST_REDIS_ENV = "SIBOL_TEST_REDIS_URL"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"Redis is needed in CI: {reason}")
    pytest.skip(reason)


def private_redis(folder: Path) -> Iterator[str]:
    """For a fixture: `yield from private_redis(tmp_path)`; a redis:// URL, database 0."""
    import redis

    named = os.environ.get(TEST_REDIS_ENV, "").strip()
    if named:
        client = redis.Redis.from_url(named, socket_connect_timeout=2)
        try:
            client.ping()
        except redis.exceptions.ConnectionError as err:
            _unavailable(f"{TEST_REDIS_ENV}={named} does not answer: {err}")
        yield named
        client.close()
        return
    binary = shutil.which("redis-server")
    if binary is None:
        _unavailable(f"no redis-server installed and no {TEST_REDIS_ENV}")
        return
    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [
            binary,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--dir",
            str(folder),
            "--save",
            "",
            "--appendonly",
            "no",
            "--logfile",
            str(folder / "redis.log"),
        ],  # fmt: skip
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                client.ping()
                break
            except redis.exceptions.ConnectionError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start; see {folder / 'redis.log'}") from None
                time.sleep(0.05)
        yield url
    finally:
        client.close()
        stop_group(proc)
