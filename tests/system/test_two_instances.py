"""Two consoles started from one checkout, each with its own database and mail server.

Each runs as `make run` runs it: gunicorn (two workers) and its own queue consumer, with nothing
set but DATABASE_URL and the mail server, so the queue, the rate-limit store and the signing key
are where the defaults put them. Once on their own files (two SQLite databases in two folders),
once sharing one Redis for queue and rate limits. Neither may take the other's work, send its
mail, spend its limits or accept its cookies.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
import requests
from aiosmtpd.controller import Controller

from sibol.config import instance_name
from tests.support.redisserver import private_redis
from tests.support.servers import ROOT, AppServer, QueueConsumer, free_port, setup_database
from tests.support.smtp import Inbox

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("SIBOL_TEST_DATABASE_URL")),
    reason="two SQLite files in two folders are the point here; it runs in `make test`",
)

SITES = ("north", "south")
QUIET = 2.0  # seconds for a consumer to take a task it should not (it polls every 0.1 s)


@dataclass
class Console:
    site: str
    email: str
    password: str
    name: str  # the instance name its queue and rate-limit keys carry
    server: AppServer
    consumer: QueueConsumer
    inbox: Inbox


@dataclass
class Pair:
    north: Console
    south: Console
    redis_url: str | None  # the Redis both share, in the shared-redis run


def console_env(site: str, folder: Path, smtp_port: int, **extra: str) -> dict[str, str]:
    """The environment of one console: its database and mail server, no queue, rate-limit store
    or secret of its own naming (they follow the database), no .env of the checkout."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SIBOL_", "MAIL_", "GOOGLE_"))
        and k not in {"RATELIMIT_STORAGE_URI", "SECRET_KEY"}
    }
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'sibol.sqlite3'}",
        MAIL_SERVER="127.0.0.1",
        MAIL_PORT=str(smtp_port),
        SIBOL_SAMPLE_DATA="0",
        SIBOL_ADMIN_USERNAME="admin",  # the same name in both: a cookie must not cross over
        SIBOL_ADMIN_PASSWORD=f"{site.title()}-pass1!",
        SIBOL_ADMIN_EMAIL=f"admin@{site}.example.test",
        FLASK_SKIP_DOTENV="1",
    )
    env.update(extra)
    return env


@pytest.fixture(scope="module", params=["own-files", "shared-redis"])
def consoles(request, tmp_path_factory) -> Iterator[Pair]:
    tmp = tmp_path_factory.mktemp(request.param)
    extra: dict[str, str] = {}
    redis_gen = None
    if request.param == "shared-redis":
        redis_gen = private_redis(tmp / "redis")
        extra["RATELIMIT_STORAGE_URI"] = next(redis_gen)  # the queue follows it
    started: list[Callable[[], None]] = []
    out: dict[str, Console] = {}
    try:
        for site in SITES:
            inbox = Inbox()
            smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
            smtp.start()
            started.append(smtp.stop)
            folder = tmp / site
            env = console_env(site, folder, smtp.port, **extra)
            setup_database(env)
            with mock.patch.dict(os.environ, env, clear=True):
                name = instance_name(str(ROOT / "instance"))
            server = AppServer(env, workers=2, log=tmp / f"{site}-server.log").start()
            started.append(server.stop)
            consumer = QueueConsumer(env, tmp / f"{site}-consumer.log").start()
            started.append(lambda c=consumer: c.stop())
            out[site] = Console(
                site, env["SIBOL_ADMIN_EMAIL"], env["SIBOL_ADMIN_PASSWORD"], name, server, consumer, inbox
            )
        yield Pair(out["north"], out["south"], extra.get("RATELIMIT_STORAGE_URI"))
    finally:
        for stop in reversed(started):
            stop()
        if redis_gen is not None:
            redis_gen.close()


def ask_reset(console: Console, email: str) -> None:
    res = requests.post(f"{console.server.url}/api/auth/forgot-password", json={"email": email}, timeout=10)
    assert res.status_code == 200, res.text
    assert "debugCode" not in res.json()


def wait_for(inbox: Inbox, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while len(inbox.messages) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(inbox.messages) >= count, f"{len(inbox.messages)} of {count} mails arrived"


def recipients(inbox: Inbox) -> list[str]:
    return [to for message in inbox.messages for to in message.rcpt_tos]


def last_code(inbox: Inbox) -> str:
    found = re.search(rb"\b(\d{6})\b", inbox.messages[-1].content)
    assert found, inbox.messages[-1].content
    return found.group(1).decode()


def test_each_console_mails_through_its_own_server_exactly_once(consoles):
    north, south = consoles.north, consoles.south
    assert north.name != south.name
    # North's consumer is down: its work waits in north's queue, and south's consumer, running,
    # must leave it there. South's own reset goes out at once through south's server.
    north.consumer.stop()
    ask_reset(north, north.email)
    ask_reset(north, south.email)  # not an account of north's: south must never mail it
    ask_reset(south, south.email)
    if consoles.redis_url:
        import redis

        with redis.Redis.from_url(consoles.redis_url) as client:
            assert client.llen(f"huey.redis.{north.name}") == 2
    wait_for(south.inbox, 1)
    time.sleep(QUIET)
    assert recipients(south.inbox) == [south.email]
    assert north.inbox.messages == []

    # Back up, north's consumer sends north's own reset through north's server, and nothing for
    # the address north does not know.
    north.consumer.start()
    wait_for(north.inbox, 1)

    # Both running, three more each.
    for _ in range(3):
        ask_reset(north, north.email)
        ask_reset(south, south.email)
    wait_for(north.inbox, 4)
    wait_for(south.inbox, 4)
    time.sleep(QUIET)
    assert recipients(north.inbox) == [north.email] * 4
    assert recipients(south.inbox) == [south.email] * 4

    # The code each server delivered was issued by its own console's database.
    for mine, other in ((north, south), (south, north)):
        code = last_code(mine.inbox)
        body = {"email": mine.email, "code": code}
        wrong = requests.post(f"{other.server.url}/api/auth/verify-reset-code", json=body, timeout=10)
        assert wrong.status_code == 400, wrong.text
        res = requests.post(
            f"{mine.server.url}/api/auth/reset-password",
            json={**body, "newPassword": f"{mine.site.title()}-new1!"},
            timeout=10,
        )
        assert res.status_code == 200, res.text
        mine.password = f"{mine.site.title()}-new1!"


def signed_in(console: Console) -> requests.Session:
    browser = requests.Session()
    form = browser.get(f"{console.server.url}/login", timeout=10).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    res = browser.post(
        f"{console.server.url}/login",
        data={"username": "admin", "password": console.password, "csrf_token": token},
        allow_redirects=False,
        timeout=10,
    )
    assert res.status_code == 302, res.text
    return browser


def test_a_session_cookie_of_one_console_is_refused_by_the_other(consoles):
    north, south = consoles.north, consoles.south
    browser = signed_in(north)
    page = browser.get(f"{north.server.url}/profile", allow_redirects=False, timeout=10)
    assert page.status_code == 200
    token = re.search(r'name="csrf-token" content="([^"]+)"', page.text).group(1)
    # Copied by hand: a browser would send it to both (cookies ignore the port).
    cookie = {"session": browser.cookies["session"]}
    # Both consoles have an "admin"; north's signed cookie opens nothing on south.
    res = requests.get(f"{south.server.url}/profile", cookies=cookie, allow_redirects=False, timeout=10)
    assert res.status_code == 302 and "/login" in res.headers["Location"]
    # Not even the form token kept in north's cookie passes: south cannot read the cookie at
    # all, so south's own password with north's token is refused as an expired form.
    res = requests.post(
        f"{south.server.url}/login",
        data={"username": "admin", "password": south.password, "csrf_token": token},
        cookies=cookie,
        allow_redirects=False,
        timeout=10,
    )
    assert res.status_code == 400
    assert "The form expired or its security token is missing" in res.text
    # North itself still takes both.
    again = requests.get(f"{north.server.url}/profile", cookies=cookie, allow_redirects=False, timeout=10)
    assert again.status_code == 200


def test_one_console_spending_its_sign_in_limit_leaves_the_other_its_own(consoles):
    north, south = consoles.north, consoles.south

    def wrong_login(console: Console, i: int) -> requests.Response:
        # A different unknown name each time: only the per-address limit counts, no lockout.
        body = {"username": f"ghost{i}", "password": "Wr0ng!pass"}
        return requests.post(f"{console.server.url}/api/auth/login", json=body, timeout=10)

    statuses = [wrong_login(north, i).status_code for i in range(15)]
    assert 429 in statuses and statuses[-1] == 429
    fresh = wrong_login(south, 99)
    assert fresh.status_code == 401, fresh.text
    assert int(fresh.headers["X-RateLimit-Remaining"]) >= int(fresh.headers["X-RateLimit-Limit"]) - 3
    if consoles.redis_url:
        import redis

        with redis.Redis.from_url(consoles.redis_url) as client:
            keys = [k.decode() for k in client.keys("*")]
        assert any(north.name in k for k in keys) and any(south.name in k for k in keys), keys
