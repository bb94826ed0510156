"""Lockout and sign-in limits against gunicorn with two worker processes:
simultaneous guesses are all counted, and every worker shares one per-address limit."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.support.servers import live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from live_server(tmp_path_factory.mktemp("lockout"), "lockout", 2, SIBOL_TRUSTED_PROXIES="1")


WRONG_PASSWORD = "Wr0ng!pass"  # noqa: S105 - a test password


def api_login(server, address, username, password=WRONG_PASSWORD):
    res = requests.post(
        f"{server.url}/api/auth/login",
        json={"username": username, "password": password},
        headers={"X-Forwarded-For": address},
        timeout=30,
    )
    return res.status_code, res.json().get("code")


def page_login(server, address, username):
    with requests.Session() as browser:
        headers = {"X-Forwarded-For": address}
        form = browser.get(f"{server.url}/login", headers=headers, timeout=30).text
        token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
        res = browser.post(
            f"{server.url}/login",
            data={"username": username, "password": "Wr0ng!pass", "csrf_token": token},
            headers=headers,
            allow_redirects=False,
            timeout=30,
        )
        return res.status_code, "locked" if "Too many failed sign-in" in res.text else None


def test_simultaneous_wrong_passwords_are_all_counted(server):
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda i: api_login(server, f"10.0.1.{i}", "admin"), range(16)))
    # Exactly four wrong passwords are answered as such; the fifth locked the account.
    assert answers.count((401, "unauthorized")) == 4, answers
    assert answers.count((429, "locked")) == 12, answers
    assert api_login(server, "10.0.1.99", "admin", "Admin-pass1!") == (429, "locked")


def test_page_and_api_share_one_limit_across_both_workers(server):
    address = "10.0.2.1"

    def attempt(i: int):
        name = f"nobody{i}"  # a different name each time: no account lock is involved
        return page_login(server, address, name) if i % 2 else api_login(server, address, name)

    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(attempt, range(16)))
    limited = [a for a in answers if a[0] == 429]
    assert len(answers) - len(limited) == 10, answers  # 10 a minute for one address, all workers
    assert all(code != "locked" for _status, code in limited)
