"""Brute-force protection per account: kept in the database, page and API
sign-in counted together, unknown names answered the same, admins see and lift locks."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from sibol.extensions import db, limiter
from sibol.identity import lockout
from sibol.models import utcnow
from sibol.models.admin import AuditEntry
from sibol.models.auth import LoginFailures
from tests.factories import DEFAULT_PASSWORD, make_account, make_admin

WRONG_PASSWORD = "Wr0ng!pass"  # noqa: S105 - a test password


def api_login(client, username, password=WRONG_PASSWORD):
    return client.post("/api/auth/login", json={"username": username, "password": password})


def page_login(client, username, password=WRONG_PASSWORD):
    return client.post("/login", data={"username": username, "password": password})


def test_five_wrong_passwords_by_page_and_api_lock_the_account(client):
    user = make_account(username="target", email="target@example.test")
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
    row = db.session.scalar(select(LoginFailures).where(LoginFailures.account_id == user.id))
    assert row.lock_count == 1


def test_an_unknown_name_gets_the_same_answers(client):
    make_account(username="real", email="real@example.test")
    answers = {}
    for name in ("real", "ghost"):
        limiter.reset()  # the per-address limit (10 a minute) is not what this test is about
        seen = [api_login(client, name) for _ in range(6)]
        answers[name] = [(r.status_code, r.json.get("code"), r.json["message"]) for r in seen]
    assert answers["real"] == answers["ghost"]
    assert [a[0] for a in answers["ghost"]] == [401, 401, 401, 401, 429, 429]


def test_lock_doubles_on_repeat_and_a_success_resets_the_count(client):
    user = make_account(username="again")
    for _ in range(4):
        api_login(client, "again")
    assert api_login(client, "again", DEFAULT_PASSWORD).status_code == 200  # count starts over
    for _ in range(4):
        assert api_login(client, "again").status_code == 401
    assert api_login(client, "again").status_code == 429  # locked: 15 minutes
    past = utcnow() - timedelta(seconds=1)
    db.session.execute(
        update(LoginFailures).where(LoginFailures.account_id == user.id).values(locked_until=past)
    )
    db.session.commit()
    limiter.reset()
    for _ in range(4):
        assert api_login(client, "again").status_code == 401
    second = api_login(client, "again")
    assert second.status_code == 429 and 29 * 60 < second.json["retryAfter"] <= 30 * 60


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


def test_admin_sees_locked_accounts_and_unlocks_them(client, login, api_headers):
    admin = make_admin(username="boss")
    make_account(username="locked.out")
    other = client.application.test_client()
    for _ in range(5):
        api_login(other, "locked.out")
    login(admin)
    html = client.get("/admin").get_data(as_text=True)
    assert 'id="locked-accounts"' in html and "<strong>locked.out</strong>" in html
    listed = client.get("/api/admin/locked", headers=api_headers(admin)).json["locked"]
    assert [row["Username"] for row in listed] == ["locked.out"]
    account_id = listed[0]["Account_id"]
    res = client.post(f"/admin/accounts/{account_id}/unlock", data={"next": "/admin"})
    assert res.status_code == 302
    assert 'id="locked-accounts"' not in client.get("/admin").get_data(as_text=True)
    assert api_login(other, "locked.out", DEFAULT_PASSWORD).status_code == 200
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


def test_counts_and_locks_quiet_for_a_day_are_forgotten(client):
    user = make_account(username="quiet")
    for name in ("quiet", "ghost"):
        for _ in range(2):
            api_login(client, name)
    day_ago = utcnow() - timedelta(days=1, minutes=1)
    db.session.execute(update(LoginFailures).values(window_start=day_ago))
    db.session.commit()
    api_login(client, "fresh")  # a count from now stays
    lockout._prune(utcnow())
    db.session.commit()
    keys = set(db.session.scalars(select(LoginFailures.key)))
    assert keys == {lockout.key_for(None, "fresh")} and lockout.key_for(user, "quiet") not in keys
