"""Wrong passwords from many addresses: past ten, each further check waits a delay that doubles from
15 seconds (to 15 minutes at most), while the owner's usual addresses are not slowed; a completed reset ends it.
And the current-password check of a password change counts with sign-in and is limited."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select, update

from sibol.extensions import db, limiter, mail
from sibol.identity import lockout
from sibol.models.auth import LoginFailures
from tests.factories import DEFAULT_PASSWORD, make_account

WRONG_PASSWORD = "Wr0ng!pass"  # noqa: S105 - a test password
NEW_PASSWORD = "N3w-Passw0rd!"  # noqa: S105 - a test password


def api_login(client, username, password=WRONG_PASSWORD, address="127.0.0.1"):
    return client.post(
        "/api/auth/login",
        json={"username": username, "password": password},
        environ_base={"REMOTE_ADDR": address},
    )


def flood(client, username: str, count: int, first: int = 1) -> list[tuple[int, str | None]]:
    """Wrong passwords, each from an address of its own."""
    answers = []
    for n in range(first, first + count):
        res = api_login(client, username, address=f"10.77.{n // 250}.{n % 250 + 1}")
        answers.append((res.status_code, res.json.get("code")))
    return answers


def wind_back(key: str, seconds: float) -> None:
    """As if the meter's last failure happened `seconds` earlier."""
    row = db.session.scalar(select(LoginFailures).where(LoginFailures.key == key))
    db.session.execute(
        update(LoginFailures)
        .where(LoginFailures.key == key)
        .values(last_failure_at=row.last_failure_at - timedelta(seconds=seconds))
    )
    db.session.commit()


def test_a_flood_from_many_addresses_is_slowed_down(client):
    owner = make_account(username="target", email="target@example.test")
    key = lockout.key_for(owner, "")
    assert flood(client, "target", 10) == [(401, "unauthorized")] * 10  # no address locked
    slowed = api_login(client, "target", address="10.99.0.1")
    assert slowed.status_code == 429 and slowed.json["code"] == "throttled"
    assert re.search(r"sign-in is slowed down\. Try again in 1[45] seconds\.$", slowed.json["message"])
    assert slowed.json["retryAfter"] in (14, 15) and int(slowed.headers["Retry-After"]) >= 14
    delays = []
    for n in range(12):
        wind_back(key, lockout.FLOOD_DELAY_MAX.total_seconds())
        assert flood(client, "target", 1, first=20 + n) == [(401, "unauthorized")]
        waiting = api_login(client, "target", address=f"10.99.1.{n + 1}")
        assert waiting.json["code"] == "throttled"
        delays.append(waiting.json["retryAfter"])
    # (MariaDB keeps the time to the second: a wait may show a second less.)
    expected = [30, 60, 120, 240, 480] + [900] * 7
    assert all(want - 1 <= got <= want for got, want in zip(delays, expected, strict=True)), delays
    assert "Try again in 15 minutes." in waiting.json["message"]


def test_an_unknown_name_is_slowed_the_same_way(client):
    make_account(username="real")
    answers = {name: flood(client, name, 11) for name in ("real", "ghost")}
    assert answers["real"] == answers["ghost"] == [(401, "unauthorized")] * 10 + [(429, "throttled")]


def test_the_owners_usual_address_is_not_slowed(client):
    make_account(username="owner")
    assert api_login(client, "owner", DEFAULT_PASSWORD, address="192.0.2.10").status_code == 200
    flood(client, "owner", 14)
    assert api_login(client, "owner", DEFAULT_PASSWORD, address="192.0.2.99").json["code"] == "throttled"
    assert api_login(client, "owner", DEFAULT_PASSWORD, address="192.0.2.10").status_code == 200
    # Wrong passwords from there still count towards that address's own lock.
    limiter.reset()
    answers = [api_login(client, "owner", address="192.0.2.10").status_code for _ in range(5)]
    assert answers == [401, 401, 401, 401, 429]


def test_the_owner_hears_of_the_slowing_once(client):
    make_account(username="hears", email="hears@example.test")
    with mail.record_messages() as outbox:
        flood(client, "hears", 9)
        assert outbox == []
        flood(client, "hears", 3, first=50)
    assert [m.recipients for m in outbox] == [["hears@example.test"]]
    assert "from addresses you have not used before is slowed down" in outbox[0].body


def test_a_completed_reset_ends_the_slowing_and_trusts_its_address(client):
    owner = make_account(username="back")
    flood(client, "back", 11)
    with mail.record_messages() as outbox:
        client.post(
            "/api/auth/forgot-password",
            json={"email": owner.email},
            environ_base={"REMOTE_ADDR": "192.0.2.44"},
        )
    code = outbox[0].body.split("reset code is: ", 1)[1][:6]
    res = client.post(
        "/api/auth/reset-password",
        json={"email": owner.email, "code": code, "newPassword": NEW_PASSWORD},
        environ_base={"REMOTE_ADDR": "192.0.2.44"},
    )
    assert res.status_code == 200
    flood(client, "back", 11, first=100)  # the flood goes on
    assert api_login(client, "back", NEW_PASSWORD, address="192.0.2.44").status_code == 200


def test_admin_unlock_ends_the_slowing_too(client, api_headers):
    from tests.factories import make_admin

    owner = make_account(username="unslow")
    flood(client, "unslow", 5)
    limiter.reset()
    for _ in range(5):
        api_login(client, "unslow", address="10.88.0.1")  # and one address locked
    flood(client, "unslow", 2, first=40)
    admin = make_admin()
    assert client.post(f"/api/admin/{owner.id}/unlock", headers=api_headers(admin)).status_code == 200
    assert api_login(client, "unslow", DEFAULT_PASSWORD, address="10.99.9.9").status_code == 200


# The current password of a password change ----------------------------------------------------


def test_current_password_guesses_count_with_sign_in_and_lock(client, api_headers):
    account = make_account(username="changer")
    headers = api_headers(account)

    def change(current: str, new: str = NEW_PASSWORD):
        return client.post(
            "/api/me/password", json={"currentPassword": current, "newPassword": new}, headers=headers
        )

    for _ in range(2):
        assert api_login(client, "changer").status_code == 401  # two at the sign-in form
    for _ in range(2):
        res = change("Guess-1234!")
        assert res.status_code == 400 and res.json["field"] == "currentPassword"
    fifth = change("Guess-1234!")
    assert (
        fifth.status_code == 429
        and fifth.json["code"] == "locked"
        and fifth.json["field"] == "currentPassword"
    )
    assert int(fifth.headers["Retry-After"]) > 14 * 60
    # Locked for this address: the right current password too, and sign-in.
    assert change(DEFAULT_PASSWORD).status_code == 429
    assert api_login(client, "changer", DEFAULT_PASSWORD).json["code"] == "locked"
    db.session.refresh(account)
    assert api_login(client, "changer", DEFAULT_PASSWORD, address="198.51.100.8").status_code == 200


def test_the_page_form_shows_the_lock_at_the_current_password(client, login):
    account = make_account(username="pager")
    login(account)
    for _ in range(4):
        res = client.post(
            "/profile/password", data={"currentPassword": "Nope-1234!", "newPassword": NEW_PASSWORD}
        )
        assert res.status_code == 400 and "Your current password is not right." in res.get_data(as_text=True)
    res = client.post(
        "/profile/password", data={"currentPassword": "Nope-1234!", "newPassword": NEW_PASSWORD}
    )
    html = res.get_data(as_text=True)
    assert res.status_code == 429 and "Too many failed sign-in attempts for this account." in html


def test_the_password_change_is_rate_limited(client, api_headers):
    account = make_account(username="busy")
    headers = api_headers(account)
    answers = [
        client.post(
            "/api/me/password",
            json={"currentPassword": DEFAULT_PASSWORD, "newPassword": "weak"},
            headers=headers,
        ).status_code
        for _ in range(11)
    ]
    assert answers == [400] * 10 + [429]  # right current passwords never lock; the limit still holds
