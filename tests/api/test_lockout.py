"""Brute-force protection of sign-in, per account and address: kept in the database, page and API
counted together, unknown names answered the same, a lock that never shuts the owner out (other
addresses, an hour at most, a reset lifts it), the owner told once, admins see and lift locks."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from sibol.extensions import db, limiter, mail
from sibol.identity import lockout, lockout_store, onetime
from sibol.models import utcnow
from sibol.models.admin import AuditEntry
from sibol.models.auth import LoginFailures
from tests.factories import DEFAULT_PASSWORD, make_account, make_admin

WRONG_PASSWORD = "Wr0ng!pass"  # noqa: S105 - a test password
HOME = "127.0.0.1"  # the test client's own address


def api_login(client, username, password=WRONG_PASSWORD, address=HOME):
    return client.post(
        "/api/auth/login",
        json={"username": username, "password": password},
        environ_base={"REMOTE_ADDR": address},
    )


def page_login(client, username, password=WRONG_PASSWORD):
    return client.post("/login", data={"username": username, "password": password})


def lock(client, username, address=HOME) -> None:
    """Five wrong passwords from one address: the fifth answers locked."""
    limiter.reset()  # the per-address limit (10 a minute) is not what these tests are about
    answers = [api_login(client, username, address=address).status_code for _ in range(5)]
    assert answers == [401, 401, 401, 401, 429]


def end_locks() -> None:
    """As if every lock had run out."""
    db.session.execute(update(LoginFailures).values(locked_until=utcnow() - timedelta(seconds=1)))
    db.session.commit()


def test_five_wrong_passwords_by_page_and_api_lock_the_account(client):
    make_account(username="target", email="target@example.test")
    # Page and API count together, and the username and the e-mail are one account.
    assert api_login(client, "target").status_code == 401
    assert page_login(client, "target").status_code == 400
    assert api_login(client, "TARGET@example.test").status_code == 401
    assert page_login(client, "target@example.test").status_code == 400
    fifth = api_login(client, "target")
    assert fifth.status_code == 429 and fifth.json["code"] == "locked"
    assert "Try again in 15 minutes" in fifth.json["message"]
    assert 14 * 60 < fifth.json["retryAfter"] <= 15 * 60
    assert abs(int(fifth.headers["Retry-After"]) - fifth.json["retryAfter"]) <= 1
    # The right password is refused while locked, on both ways in.
    right = api_login(client, "target", DEFAULT_PASSWORD)
    assert right.status_code == 429 and right.json["code"] == "locked" and "token" not in right.json
    page = page_login(client, "target", DEFAULT_PASSWORD)
    assert page.status_code == 400 and "Too many failed sign-in attempts" in page.get_data(as_text=True)
    assert client.get("/dashboard").status_code == 302  # not signed in


def test_a_lock_holds_only_for_the_address_it_came_from(client):
    make_account(username="owner")
    lock(client, "owner", address="203.0.113.7")
    assert api_login(client, "owner", DEFAULT_PASSWORD, address="203.0.113.7").json["code"] == "locked"
    # The owner, anywhere else, signs in as usual.
    assert api_login(client, "owner", DEFAULT_PASSWORD, address="198.51.100.20").status_code == 200


def test_one_address_cannot_lock_everyones_accounts(client):
    names = [make_account(username=f"staff{n}").username for n in range(3)]
    for name in names:
        lock(client, name, address="203.0.113.66")
    for name in names:
        assert api_login(client, name, DEFAULT_PASSWORD, address="198.51.100.1").status_code == 200


def test_an_ipv6_address_counts_by_its_slash_64(client):
    make_account(username="six")
    limiter.reset()
    answers = [api_login(client, "six", address=f"2001:db8:0:1::{n}").status_code for n in range(1, 6)]
    assert answers == [401, 401, 401, 401, 429]  # one subscriber's block: one address
    assert api_login(client, "six", DEFAULT_PASSWORD, address="2001:db8:0:1::99").status_code == 429
    assert api_login(client, "six", DEFAULT_PASSWORD, address="2001:db8:0:2::1").status_code == 200


def test_an_unknown_name_gets_the_same_answers(client):
    make_account(username="real", email="real@example.test")
    answers = {}
    for name in ("real", "ghost"):
        limiter.reset()
        seen = [api_login(client, name) for _ in range(6)]
        answers[name] = [(r.status_code, r.json.get("code"), r.json["message"]) for r in seen]
    assert answers["real"] == answers["ghost"]
    assert [a[0] for a in answers["ghost"]] == [401, 401, 401, 401, 429, 429]


def test_the_lock_doubles_to_at_most_an_hour_and_a_success_resets_it(client):
    make_account(username="again")
    limiter.reset()
    for _ in range(4):
        api_login(client, "again")
    assert api_login(client, "again", DEFAULT_PASSWORD).status_code == 200  # count starts over
    lengths = []
    for _ in range(4):
        limiter.reset()
        for _ in range(4):
            assert api_login(client, "again").status_code == 401
        locked = api_login(client, "again")
        assert locked.status_code == 429
        lengths.append(round(locked.json["retryAfter"] / 60))
        end_locks()
    assert lengths == [15, 30, 60, 60]
    assert api_login(client, "again", DEFAULT_PASSWORD).status_code == 200
    limiter.reset()
    for _ in range(4):
        api_login(client, "again")
    assert round(api_login(client, "again").json["retryAfter"] / 60) == 15  # the doubling starts over


def test_failures_older_than_the_window_do_not_count(client):
    user = make_account(username="slow")
    for _ in range(4):
        api_login(client, "slow")
    old = utcnow() - lockout.WINDOW - timedelta(seconds=5)
    db.session.execute(
        update(LoginFailures).where(LoginFailures.account_id == user.id).values(window_start=old)
    )
    db.session.commit()
    assert api_login(client, "slow").status_code == 401  # the count restarted at 1
    assert api_login(client, "slow", DEFAULT_PASSWORD).status_code == 200


def test_the_owner_is_emailed_once_when_a_lock_starts(client):
    user = make_account(username="told", first_name="Tala", email="tala@example.test")
    with mail.record_messages() as outbox:
        lock(client, "told", address="203.0.113.9")
        lock(client, "told", address="203.0.113.10")  # a second lock within the hour: no second mail
        lock(client, "nobody", address="203.0.113.9")  # an unknown name: nobody to tell
    assert [m.recipients for m in outbox] == [["tala@example.test"]]
    body = outbox[0].body
    assert outbox[0].subject == "SIBOL: Sign-in to your SIBOL account was paused"
    assert "Hello Tala," in body and "(told) from the address 203.0.113.9" in body
    assert "paused for 15 minutes" in body and "a completed reset lifts every pause at once" in body
    # An hour later a new lock is told again (the ten failures so far are forgotten here: the
    # slowing they started is another test's).
    db.session.execute(
        update(LoginFailures)
        .where(LoginFailures.key == lockout.key_for(user, ""))
        .values(notified_at=utcnow() - timedelta(hours=1, seconds=1), failures=0)
    )
    db.session.commit()
    end_locks()
    with mail.record_messages() as outbox:
        lock(client, "told", address="203.0.113.9")
    assert len(outbox) == 1 and "paused for 30 minutes" in outbox[0].body


def request_code(client, email: str) -> str:
    with mail.record_messages() as outbox:
        assert client.post("/api/auth/forgot-password", json={"email": email}).status_code == 200
    [message] = [m for m in outbox if "reset code" in m.subject]
    return message.body.split("reset code is: ", 1)[1][:6]


@pytest.mark.parametrize("how", ["api", "page"])
def test_a_completed_password_reset_lifts_the_lock(client, how):
    user = make_account(username="resets")
    lock(client, "resets")
    lock(client, "resets", address="203.0.113.50")
    new = "N3w-Passw0rd!"
    code = request_code(client, user.email)
    if how == "api":
        res = client.post(
            "/api/auth/reset-password", json={"email": user.email, "code": code, "newPassword": new}
        )
        assert res.status_code == 200
    else:
        form = {"email": user.email, "code": code, "newPassword": new, "confirmPassword": new}
        assert client.post("/forgot-password/reset", data=form).status_code == 200
    limiter.reset()
    assert api_login(client, "resets", new).status_code == 200
    assert api_login(client, "resets", new, address="203.0.113.50").status_code == 200


def test_a_set_password_link_lifts_the_lock(client):
    account = make_account(username="linked")
    lock(client, "linked")
    raw = onetime.set_password_url(account).split("token=", 1)[1]
    db.session.commit()
    res = client.post("/api/auth/set-password", json={"token": raw, "newPassword": "N3w-Passw0rd!"})
    assert res.status_code == 200
    assert api_login(client, "linked", "N3w-Passw0rd!").status_code == 200


def test_admin_sees_locked_accounts_and_unlocks_them(client, login, api_headers):
    admin = make_admin(username="boss")
    make_account(username="locked.out")
    other = client.application.test_client()
    lock(other, "locked.out", address="203.0.113.1")
    lock(other, "locked.out", address="203.0.113.2")  # two addresses: listed once
    login(admin)
    html = client.get("/admin").get_data(as_text=True)
    assert 'id="locked-accounts"' in html and "<strong>locked.out</strong>" in html
    listed = client.get("/api/admin/locked", headers=api_headers(admin)).json["locked"]
    assert [row["Username"] for row in listed] == ["locked.out"]
    account_id = listed[0]["Account_id"]
    res = client.post(f"/admin/accounts/{account_id}/unlock", data={"next": "/admin"})
    assert res.status_code == 302
    assert 'id="locked-accounts"' not in client.get("/admin").get_data(as_text=True)
    for address in ("203.0.113.1", "203.0.113.2"):
        assert api_login(other, "locked.out", DEFAULT_PASSWORD, address=address).status_code == 200
    entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "unlock"))
    assert entry.target_id == account_id and entry.actor_id == admin.id
    # Unlocking an account that is not locked is a conflict; through the API too.
    again = client.post(f"/api/admin/{account_id}/unlock", headers=api_headers(admin))
    assert again.status_code == 409 and again.json["field"] == "Account_id"
    assert client.post("/api/admin/999999/unlock", headers=api_headers(admin)).status_code == 404


def test_unlock_needs_the_admin_module(client, api_headers):
    staff = make_account()
    assert client.post(f"/api/admin/{staff.id}/unlock", headers=api_headers(staff)).status_code == 403
    assert client.get("/api/admin/locked", headers=api_headers(staff)).status_code == 403


def test_counts_and_locks_quiet_for_a_day_are_forgotten_but_trust_is_kept(client):
    user = make_account(username="quiet")
    assert api_login(client, "quiet", DEFAULT_PASSWORD, address="198.51.100.3").status_code == 200
    for name in ("quiet", "ghost"):
        for _ in range(2):
            api_login(client, name)
    day_ago = utcnow() - timedelta(days=1, minutes=1)
    db.session.execute(update(LoginFailures).values(window_start=day_ago, last_failure_at=day_ago))
    db.session.commit()
    api_login(client, "fresh")  # a count from now stays
    lockout_store.prune(utcnow())
    db.session.commit()
    keys = set(db.session.scalars(select(LoginFailures.key)))
    fresh = lockout.key_for(None, "fresh")
    trusted = lockout.source_key(lockout.key_for(user, ""), "198.51.100.3")
    assert keys == {fresh, lockout.source_key(fresh, HOME), trusted}
