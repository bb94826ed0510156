"""Lockout and sign-in limits against gunicorn with two worker processes: simultaneous guesses
are counted before any password is compared, from one address and from many, and every worker
shares one per-address limit; simultaneous right passwords never lock or slow the account. Runs on SQLite, and on MariaDB with SIBOL_TEST_DATABASE_URL."""

from __future__ import annotations

import re

import pytest
import requests

from tests.support.races import at_once
from tests.support.servers import ADMIN_PASSWORD, admin_headers, live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from live_server(tmp_path_factory.mktemp("lockout"), "lockout", 2, SIBOL_TRUSTED_PROXIES="1")


WRONG_PASSWORD = "Wr0ng!pass"  # noqa: S105 - a test password
PASSWORD = "Live-pass1!"  # noqa: S105 - a test password


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


def make_user(server, username: str) -> None:
    res = requests.post(
        f"{server.url}/api/admin/create",
        json={
            "FirstName": "Live",
            "LastName": "User",
            "Email": f"{username}@example.test",
            "Roles": 2,
            "Username": username,
            "Password": PASSWORD,
        },
        headers=admin_headers(server.url),
        timeout=30,
    )
    assert res.status_code == 201, res.text


def test_simultaneous_wrong_passwords_from_one_address_lock_it_at_five(server):
    answers = at_once([lambda: api_login(server, "10.0.1.1", "admin")] * 9)
    # Exactly five were compared: four answered as wrong, the fifth began the lock.
    assert answers.count((401, "unauthorized")) == 4, answers
    assert answers.count((429, "locked")) == 5, answers
    assert api_login(server, "10.0.1.1", "admin", ADMIN_PASSWORD) == (429, "locked")
    # The owner elsewhere is not locked out.
    assert api_login(server, "10.0.1.2", "admin", ADMIN_PASSWORD)[0] == 200


def locked_usernames(server) -> list[str]:
    res = requests.get(f"{server.url}/api/admin/locked", headers=admin_headers(server.url), timeout=30)
    return [row["Username"] for row in res.json()["locked"]]


# Ten sign-ins a minute is the per-address request limit (a separate guard), hence at most ten.
@pytest.mark.parametrize("threads", [8, 10])
def test_simultaneous_right_passwords_from_one_address_never_lock(server, threads):
    username = f"office{threads}"
    make_user(server, username)
    address = f"10.0.5.{threads}"  # a new address: not yet one the account signed in from
    answers = at_once([lambda: api_login(server, address, username, PASSWORD)] * threads)
    assert [status for status, _code in answers] == [200] * threads, answers
    assert username not in locked_usernames(server)


@pytest.fixture(scope="module")
def unlimited(tmp_path_factory):
    """A server without the per-address request limit (10 sign-ins a minute), to send more at once."""
    yield from live_server(
        tmp_path_factory.mktemp("lockout-unlimited"),
        "lockout_unlimited",
        2,
        SIBOL_TRUSTED_PROXIES="1",
        RATELIMIT_ENABLED="0",
    )


def test_twelve_simultaneous_right_passwords_are_neither_locked_nor_slowed(unlimited):
    """Past five (the address's lock) and past ten (the account's flood meter) at once."""
    make_user(unlimited, "bench")
    answers = at_once([lambda: api_login(unlimited, "10.0.7.1", "bench", PASSWORD)] * 12)
    assert [status for status, _code in answers] == [200] * 12, answers
    assert "bench" not in locked_usernames(unlimited)
    # Wrong ones from a new address still lock it at the fifth.
    wrong = [api_login(unlimited, "10.0.7.2", "bench") for _ in range(6)]
    assert wrong == [(401, "unauthorized")] * 4 + [(429, "locked")] * 2, wrong


def test_right_and_wrong_passwords_at_once_lock_only_after_five_wrong_ones(server):
    make_user(server, "mixed")
    address = "10.0.6.1"
    calls = [lambda: api_login(server, address, "mixed", PASSWORD)] * 5
    calls += [lambda: api_login(server, address, "mixed")] * 4
    answers = at_once(calls)
    assert [a[0] for a in answers[:5]] == [200] * 5, answers
    assert answers[5:] == [(401, "unauthorized")] * 4, answers
    assert "mixed" not in locked_usernames(server)
    assert api_login(server, address, "mixed", PASSWORD)[0] == 200


def test_a_simultaneous_flood_from_many_addresses_gets_ten_checks(server):
    make_user(server, "flooded")
    assert api_login(server, "10.0.3.250", "flooded", PASSWORD)[0] == 200  # the owner's usual address
    answers = at_once([lambda i=i: api_login(server, f"10.0.3.{i + 1}", "flooded") for i in range(24)])
    assert answers.count((401, "unauthorized")) == 10, answers
    assert answers.count((429, "throttled")) == 14, answers
    assert api_login(server, "10.0.4.1", "flooded", PASSWORD) == (429, "throttled")  # 15 s to wait
    assert api_login(server, "10.0.3.250", "flooded", PASSWORD)[0] == 200


def test_page_and_api_share_one_limit_across_both_workers(server):
    address = "10.0.2.1"

    def attempt(i: int):
        name = f"nobody{i}"  # a different name each time: no account lock is involved
        return page_login(server, address, name) if i % 2 else api_login(server, address, name)

    answers = at_once([lambda i=i: attempt(i) for i in range(16)])
    limited = [a for a in answers if a[0] == 429]
    assert len(answers) - len(limited) == 10, answers  # 10 a minute for one address, all workers
    assert all(code != "locked" for _status, code in limited)
