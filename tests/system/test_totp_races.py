"""A second factor's code sent by several sign-ins at the same moment, against gunicorn with two
worker processes: an authenticator code and a recovery code each let exactly one of them in.
Runs on SQLite, and on MariaDB with SIBOL_TEST_DATABASE_URL."""

from __future__ import annotations

import secrets
import time

import pyotp
import pytest
import requests

from tests.support.races import at_once
from tests.support.servers import admin_headers, live_server

USES = 5  # at once; the losers count as wrong codes, kept under the flood meter's free ten
PASSWORD = "Race-pass1!"  # noqa: S105 - a test password


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from live_server(tmp_path_factory.mktemp("totp"), "totp", 2, SIBOL_TRUSTED_PROXIES="1")


def address() -> dict:
    """A client address of its own (the per-address limits are not what this is about)."""
    return {"X-Forwarded-For": f"10.9.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"}


def sign_in(server, username: str, **extra) -> requests.Response:
    return requests.post(
        f"{server.url}/api/auth/login",
        json={"username": username, "password": PASSWORD, **extra},
        headers=address(),
        timeout=30,
    )


def test_a_code_and_a_recovery_code_each_sign_in_once(server):
    admin = admin_headers(server.url)
    body = {"FirstName": "Race", "LastName": "Code", "Email": "race.code@example.test", "Roles": 2}
    body |= {"Username": "race.code", "Password": PASSWORD}
    created = requests.post(f"{server.url}/api/admin/create", json=body, headers=admin, timeout=30)
    assert created.status_code == 201, created.text
    first = sign_in(server, "race.code")
    headers = {"Authorization": f"Bearer {first.json()['token']}"}
    secret = requests.post(f"{server.url}/api/me/totp", headers=headers, timeout=30).json()["secret"]
    totp = pyotp.TOTP(secret)
    done = requests.post(
        f"{server.url}/api/me/totp/confirm", json={"code": totp.now()}, headers=headers, timeout=30
    )
    recovery = done.json()["recoveryCodes"]

    code = totp.at(time.time() + totp.interval)  # the next step's: newer than the one that confirmed
    answers = at_once([lambda: sign_in(server, "race.code", totp=code) for _ in range(USES)])
    assert sorted(a.status_code for a in answers) == [200] + [401] * (USES - 1)

    answers = at_once([lambda: sign_in(server, "race.code", totp=recovery[0]) for _ in range(USES)])
    assert sorted(a.status_code for a in answers) == [200] + [401] * (USES - 1)
    left = requests.get(f"{server.url}/api/me/totp", headers=headers, timeout=30).json()
    assert left["recoveryCodesLeft"] == 9
