"""One-time secrets used by several requests at the same moment, against gunicorn with two worker
processes (threads in each): a set-password link, a verification link, a reset code and an Undo
offer each work for exactly one of them. Reset-code guesses landing together never get more than
five tries. Runs on SQLite, and on MariaDB with SIBOL_TEST_DATABASE_URL."""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import UTC, datetime, timedelta

import pytest
import requests
from sqlalchemy import create_engine, text

from tests.support import servers
from tests.support.races import at_once
from tests.support.servers import live_server

USES = 8
ROUNDS = 3
PASSWORD = "Race-pass1!"  # noqa: S105 - a test password


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from live_server(tmp_path_factory.mktemp("tokens"), "tokens", 2, SIBOL_TRUSTED_PROXIES="1")


@pytest.fixture(scope="module")
def engine(server):
    engine = create_engine(server.env["DATABASE_URL"].replace("mysql://", "mysql+mysqldb://", 1))
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def admin_headers(server):
    return servers.admin_headers(server.url)


def address(i: int) -> dict:
    """A client address of its own (the per-address limits are not what these tests are about)."""
    return {"X-Forwarded-For": f"10.{i // 250 % 250}.{i % 250}.{secrets.randbelow(250) + 1}"}


def create_account(server, admin_headers, username: str, password: str | None = PASSWORD) -> int:
    body = {"FirstName": "Race", "LastName": "Test", "Email": f"{username}@example.test", "Roles": 2}
    body |= {"Username": username} | ({"Password": password} if password else {})
    res = requests.post(f"{server.url}/api/admin/create", json=body, headers=admin_headers, timeout=30)
    assert res.status_code == 201, res.text
    return res.json()["user"]["Account_id"]


def add_secret(engine, account_id: int, purpose: str, hashed_text: str) -> None:
    """A live one-time secret, stored as the server stores them (only a SHA-256)."""
    now = datetime.now(UTC).replace(tzinfo=None)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO account_tokens (account_id, purpose, token_hash, created_at, expires_at,"
                " failed_attempts) VALUES (:account, :purpose, :hash, :now, :expires, 0)"
            ),
            {
                "account": account_id,
                "purpose": purpose,
                "hash": hashlib.sha256(hashed_text.encode()).hexdigest(),
                "now": now,
                "expires": now + timedelta(minutes=10),
            },
        )


def signs_in(server, username: str, password: str) -> bool:
    res = requests.post(
        f"{server.url}/api/auth/login",
        json={"username": username, "password": password},
        headers=address(secrets.randbelow(10_000)),
        timeout=30,
    )
    return res.status_code == 200


def test_a_set_password_link_works_once(server, engine, admin_headers):
    for n in range(ROUNDS):
        account_id = create_account(server, admin_headers, f"setpw{n}", password=None)
        raw = secrets.token_urlsafe(32)
        add_secret(engine, account_id, "set_password", raw)

        def use(i: int, raw: str = raw, n: int = n):
            return requests.post(
                f"{server.url}/api/auth/set-password",
                json={"token": raw, "newPassword": f"Pass-{i}-word!"},
                headers=address(1000 * n + i),
                timeout=60,
            )

        answers = at_once([lambda i=i: use(i) for i in range(USES)])
        statuses = [r.status_code for r in answers]
        assert sorted(statuses) == [200] + [400] * (USES - 1), [r.text for r in answers]
        assert all(r.json()["field"] == "token" for r in answers if r.status_code == 400)
        winner = statuses.index(200)
        assert signs_in(server, f"setpw{n}", f"Pass-{winner}-word!")
        assert not signs_in(server, f"setpw{n}", f"Pass-{(winner + 1) % USES}-word!")


def test_a_verification_link_works_once(server, engine):
    barangay = requests.get(f"{server.url}/api/auth/barangays", timeout=30).json()["barangays"][0]["id"]
    for n in range(ROUNDS):
        email = f"verify{n}@example.test"
        res = requests.post(
            f"{server.url}/api/auth/signup",
            json={"role": 4, "firstName": "Vera", "lastName": "Fy", "email": email, "areaId": barangay},
            headers=address(n),
            timeout=30,
        )
        assert res.status_code == 201, res.text
        with engine.connect() as conn:
            account_id = conn.execute(text("SELECT id FROM accounts WHERE email = :e"), {"e": email}).scalar()
        raw = secrets.token_urlsafe(32)
        add_secret(engine, account_id, "verify_email", raw)
        answers = at_once(
            [
                lambda i=i, raw=raw, n=n: requests.get(
                    f"{server.url}/api/auth/verify-email/{raw}",
                    headers=address(2000 + 10 * n + i),
                    timeout=60,
                )
                for i in range(USES)
            ]
        )
        assert sorted(r.status_code for r in answers) == [200] + [400] * (USES - 1), [r.text for r in answers]


def test_a_reset_code_works_once_and_guesses_get_five_tries(server, engine, admin_headers):
    for n in range(ROUNDS):
        username = f"reset{n}"
        account_id = create_account(server, admin_headers, username)
        code = f"{secrets.randbelow(1_000_000):06d}"
        add_secret(engine, account_id, "reset_code", f"{account_id}:{code}")
        email = f"{username}@example.test"

        def reset(i: int, code: str = code, email: str = email, n: int = n):
            return requests.post(
                f"{server.url}/api/auth/reset-password",
                json={"email": email, "code": code, "newPassword": f"Reset-{i}-pw!"},
                headers=address(3000 + 10 * n + i),
                timeout=60,
            )

        answers = at_once([lambda i=i: reset(i) for i in range(USES)])
        statuses = [r.status_code for r in answers]
        assert sorted(statuses) == [200] + [400] * (USES - 1), [r.text for r in answers]
        assert signs_in(server, username, f"Reset-{statuses.index(200)}-pw!")

    # Twelve wrong guesses at once: five are counted, and then the right code is dead too.
    account_id = create_account(server, admin_headers, "guessed")
    code = "123456"
    add_secret(engine, account_id, "reset_code", f"{account_id}:{code}")
    wrong = [f"{n:06d}" for n in range(200000, 200012)]
    answers = at_once(
        [
            lambda guess=guess, i=i: requests.post(
                f"{server.url}/api/auth/verify-reset-code",
                json={"email": "guessed@example.test", "code": guess},
                headers=address(4000 + i),
                timeout=60,
            )
            for i, guess in enumerate(wrong)
        ]
    )
    assert {r.status_code for r in answers} == {400}
    with engine.connect() as conn:
        tries = conn.execute(
            text("SELECT failed_attempts FROM account_tokens WHERE account_id = :a"), {"a": account_id}
        ).scalar()
    assert tries == 5
    late = requests.post(
        f"{server.url}/api/auth/verify-reset-code",
        json={"email": "guessed@example.test", "code": code},
        headers=address(4100),
        timeout=30,
    )
    assert late.status_code == 400


def page_session(server, username: str) -> requests.Session:
    browser = requests.Session()
    browser.headers.update(address(secrets.randbelow(10_000)))
    form = browser.get(f"{server.url}/login", timeout=30).text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    res = browser.post(
        f"{server.url}/login",
        data={"username": username, "password": PASSWORD, "csrf_token": csrf},
        allow_redirects=False,
        timeout=30,
    )
    assert res.status_code == 302, res.text
    return browser


def test_an_undo_offer_works_once(server, engine, admin_headers):
    account_id = create_account(server, admin_headers, "undoer")
    reward = requests.post(
        f"{server.url}/api/household/rewards",
        json={"reward": "Rice", "points": 100},
        headers=admin_headers,
        timeout=30,
    ).json()["reward"]["id"]
    with engine.begin() as conn:
        barangay = conn.execute(
            text("SELECT barangay_id FROM accounts WHERE id = :a"), {"a": account_id}
        ).scalar()
        conn.execute(
            text(
                "INSERT INTO household_members (barangay_id, name, barangay, points, is_active, created_at)"
                " VALUES (:b, 'Rosa Lim', '', 1000, :yes, :now)"
            ),
            {"b": barangay, "yes": True, "now": datetime.now(UTC).replace(tzinfo=None)},
        )
        member = conn.execute(text("SELECT MAX(id) FROM household_members")).scalar()
    browser = page_session(server, "undoer")
    for n in range(ROUNDS):
        page = browser.get(f"{server.url}/household?tab=rewards", timeout=30).text
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        claimed = browser.post(
            f"{server.url}/household/rewards/{reward}/claims",
            data={"memberId": str(member), "confirmed": "1", "csrf_token": csrf},
            timeout=30,
        ).text
        assert "Undo" in claimed, claimed
        action = re.search(
            r'<form method="post" action="([^"]+)" class="banner banner--info undo"', claimed
        ).group(1)
        csrf = re.search(
            r'id="undo">\s*<input type="hidden" name="csrf_token" value="([^"]+)"', claimed
        ).group(1)
        copies = []
        for i in range(USES):  # the same cookie in every copy, posted together
            copy = requests.Session()
            copy.headers.update(address(5000 + 10 * n + i))
            copy.cookies.update(browser.cookies)
            copies.append(copy)
        answers = at_once(
            [
                lambda c=c, action=action, csrf=csrf: c.post(
                    f"{server.url}{action}", data={"csrf_token": csrf}, timeout=60
                )
                for c in copies
            ]
        )
        undone = [r for r in answers if "Claim undone" in r.text]
        late = [r for r in answers if "too late to undo" in r.text]
        assert (len(undone), len(late)) == (1, USES - 1), [r.status_code for r in answers]
        with engine.connect() as conn:
            points = conn.execute(
                text("SELECT points FROM household_members WHERE id = :m"), {"m": member}
            ).scalar()
        assert points == 1000  # the points came back once
