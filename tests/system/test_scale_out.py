"""Two app servers against one database and one Redis: revocation and rate limits are shared."""

from __future__ import annotations

import uuid

import pytest
import requests

from tests.support.redisserver import private_redis
from tests.support.servers import AppServer, drop_database, fresh_database, server_env, setup_database


@pytest.fixture
def redis_url(tmp_path):
    """SIBOL_TEST_REDIS_URL, or a redis-server of this test's own (never the machine's 6379)."""
    yield from private_redis(tmp_path / "redis")


@pytest.fixture
def two_servers(tmp_path, redis_url):
    url = fresh_database(tmp_path, "two")
    # A console name of this run's own: a named Redis may still hold counters of an earlier run.
    env = server_env(
        url, RATELIMIT_STORAGE_URI=redis_url, SIBOL_INSTANCE=f"scale_out_{uuid.uuid4().hex[:12]}"
    )
    setup_database(env)
    servers = [AppServer(env, log=tmp_path / f"server{i}.log").start() for i in range(2)]
    yield servers
    for server in servers:
        server.stop()
    drop_database(url)


def test_token_revoked_on_one_server_is_refused_by_the_other(two_servers):
    a, b = two_servers
    res = requests.post(
        f"{a.url}/api/auth/login", json={"username": "admin", "password": "Admin-pass1!"}, timeout=10
    )
    assert res.status_code == 200
    bearer = {"Authorization": f"Bearer {res.json()['token']}"}
    assert requests.get(f"{b.url}/api/modules/allowed", headers=bearer, timeout=10).status_code == 200
    assert requests.post(f"{b.url}/api/auth/logout", headers=bearer, timeout=10).status_code == 200
    refused = requests.get(f"{a.url}/api/modules/allowed", headers=bearer, timeout=10)
    assert refused.status_code == 401


def test_login_rate_limit_counts_across_both_servers(two_servers):
    a, b = two_servers
    # A different unknown name each time: the per-account lockout (5 tries) is not involved.
    first = requests.post(
        f"{a.url}/api/auth/login", json={"username": "ghost0", "password": "wrong"}, timeout=10
    )
    limit = int(first.headers["X-RateLimit-Limit"])
    statuses = [first.status_code]
    for i in range(1, limit + 1):
        server = b if i % 2 else a
        res = requests.post(
            f"{server.url}/api/auth/login", json={"username": f"ghost{i}", "password": "wrong"}, timeout=10
        )
        statuses.append(res.status_code)
    assert statuses[:limit] == [401] * limit
    assert statuses[limit] == 429
    last = requests.post(
        f"{a.url}/api/auth/login", json={"username": "admin", "password": "Admin-pass1!"}, timeout=10
    )
    assert last.status_code == 429 and int(last.headers["Retry-After"]) > 0
    assert last.json()["message"]
