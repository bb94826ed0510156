"""Production-style app servers (gunicorn) run as separate processes for scale-out and crash tests."""

from __future__ import annotations

import itertools
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import requests
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


# Under pytest-xdist each worker takes its ports from a block of its own (gw0: 20000-20999, gw1:
# 21000-21999, ..., twelve blocks below the kernel's ephemeral ports, where servers bound to port 0
# land): a port probed free here is taken a moment later by the server started on it, and in that
# moment another worker's probe must not find it free too.
PORT_BLOCK = 1000
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "").removeprefix("gw")
_handed_out = itertools.count()


def free_port() -> int:
    """A loopback port nothing listens on now: under pytest-xdist the next free one of this
    worker's block (so not one it handed out lately), else any the kernel picks."""
    if not _WORKER.isdigit():
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
    start = 20000 + PORT_BLOCK * (int(_WORKER) % 12)
    for _ in range(PORT_BLOCK):
        port = start + next(_handed_out) % PORT_BLOCK
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use, or still closing
        return port
    raise RuntimeError(f"no free port in {start}-{start + PORT_BLOCK - 1}")


def fresh_database(tmp_path: Path, suffix: str) -> str:
    """A new empty database: a SQLite file, or a MariaDB database when the tests run on one."""
    url = os.environ.get("SIBOL_TEST_DATABASE_URL")
    if not url:
        return f"sqlite:///{tmp_path / f'{suffix}.sqlite3'}"
    from sibol.config import database_url

    parsed = make_url(database_url(url, ""))
    name = f"{parsed.database}_{suffix}"
    server = create_engine(parsed._replace(database=None))  # the server alone (.set would keep the name)
    with server.begin() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS `{name}`"))
        conn.execute(text(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4"))
    server.dispose()
    return parsed.set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    if url.startswith("sqlite"):
        return
    parsed = make_url(url)
    server = create_engine(parsed._replace(database=None))
    with server.begin() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS `{parsed.database}`"))
    server.dispose()


ADMIN_PASSWORD = "Admin-pass1!"  # noqa: S105 - the first Admin of the test servers' databases


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIBOL_", "MAIL_", "GOOGLE_"))}
    env.pop("RATELIMIT_STORAGE_URI", None)
    # The task queue and the rate-limit store of these servers: their own, not instance/'s.
    state = Path(tempfile.mkdtemp(prefix="sibol-server-"))
    env.update(
        SIBOL_QUEUE_URL=f"sqlite:///{state / 'queue.sqlite3'}",
        RATELIMIT_STORAGE_URI=f"sibol-sqlite://{state / 'ratelimits.sqlite3'}",
        DATABASE_URL=database_url,
        SECRET_KEY="shared-test-secret",
        SIBOL_SAMPLE_DATA="0",
        SIBOL_ADMIN_USERNAME="admin",
        SIBOL_ADMIN_PASSWORD=ADMIN_PASSWORD,
        SIBOL_ADMIN_EMAIL="admin@example.test",
    )
    env.update(extra)
    return env


def setup_database(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", "wsgi", "setup"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )


HUEY_CONSUMER = Path(sys.executable).with_name("huey_consumer")


class QueueConsumer:
    """huey_consumer for the e-mail queue, as `make run` starts it beside gunicorn."""

    def __init__(self, env: dict[str, str], log: Path):
        self.env, self.log = env, log
        self.proc: subprocess.Popen | None = None

    def start(self) -> QueueConsumer:
        out = open(self.log, "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [str(HUEY_CONSUMER), "sibol.worker.huey", "--workers", "1", "--delay", "0.1"],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
        return self

    def kill(self) -> None:
        """SIGKILL the consumer's process group: no shutdown hook, no task put back."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        stop_group(self.proc)


def stop_group(proc: subprocess.Popen | None) -> None:
    """SIGTERM a process group started with start_new_session; SIGKILL if it lingers."""
    if proc and proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def live_server(tmp: Path, name: str, workers: int, **env: str):
    """A migrated, seeded database and gunicorn on it (a generator for module-scoped fixtures)."""
    url = fresh_database(tmp, name)
    server_environment = server_env(url, **env)
    setup_database(server_environment)
    app = AppServer(server_environment, workers=workers, log=tmp / "server.log").start()
    yield app
    app.stop()
    drop_database(url)


class AppServer:
    """gunicorn wsgi:app on a free port."""

    def __init__(self, env: dict[str, str], workers: int = 1, log: Path | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env
        self.workers = workers
        self.log = log
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> AppServer:
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            [str(GUNICORN), "--workers", str(self.workers), "--bind", f"127.0.0.1:{self.port}", "wsgi:app"],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as res:  # noqa: S310
                    if res.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        raise RuntimeError("server did not become healthy")

    def kill(self) -> None:
        """SIGKILL the whole process group: no graceful shutdown, like a power cut."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        stop_group(self.proc)


def admin_headers(base_url: str) -> dict[str, str]:
    """Bearer headers of the first Admin (made by setup_database), signed in at the server."""
    login = requests.post(
        f"{base_url}/api/auth/login", json={"username": "admin", "password": ADMIN_PASSWORD}, timeout=10
    )
    return {"Authorization": f"Bearer {login.json()['token']}"}


def first_area_id(base_url: str, headers: dict[str, str]) -> int:
    """The id of the first area the machines API lists (a new machine needs one)."""
    areas = requests.get(f"{base_url}/api/machines/areas", headers=headers, timeout=10).json()
    return (areas.get("data") if isinstance(areas, dict) else areas)[0]["Area_id"]
