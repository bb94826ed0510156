"""The notification centre: events, the unread count, read / read-all, preferences."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import select

from sibol.extensions import db
from sibol.models import Module, RoleId
from sibol.models.telemetry import Notification
from sibol.telemetry import hooks
from tests.factories import make_account, make_machine
from tests.factories_machines import make_container
from tests.factories_maintenance import make_request
from tests.factories_telemetry import device, iso, keyed_machine


def kinds(account) -> list[str]:
    return list(db.session.scalars(select(Notification.kind).where(Notification.account_id == account.id)))


def test_an_alert_opening_and_closing_tells_every_module_2_holder(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    household = make_account(role=RoleId.HOUSEHOLD)
    _machine, key = keyed_machine("Digester North")
    client.post("/api/telemetry", json={"ts": iso(10), "ph": 5.0}, headers=device(key))
    res = client.get("/api/notifications", headers=api_headers(staff))
    assert res.json["unread"] == 1
    [note] = res.json["data"]
    assert note["title"] == "Digester North: pH alert opened" and "healthy range 6.5–8" in note["body"]
    assert note["link"].startswith("/sibol-machines/alerts/") and note["read"] is False
    assert client.get("/api/notifications", headers=api_headers(household)).json["unread"] == 0
    readings = [{"ts": iso(9 - i), "ph": 7} for i in range(3)]
    client.post("/api/telemetry", json={"readings": readings}, headers=device(key))
    assert sorted(kinds(staff)) == ["alert_closed", "alert_opened"]


def test_read_and_read_all(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    _machine, key = keyed_machine()
    client.post(
        "/api/telemetry",
        json={"readings": [{"ts": iso(3), "ph": 3}, {"ts": iso(2), "temperature_c": 50}]},
        headers=device(key),
    )
    headers = api_headers(staff)
    notes = client.get("/api/notifications", headers=headers).json["data"]
    assert len(notes) == 2
    res = client.post(f"/api/notifications/{notes[0]['id']}/read", headers=headers)
    assert res.status_code == 200 and res.json["data"]["read"] is True
    assert client.get("/api/notifications", headers=headers).json["unread"] == 1
    assert client.post("/api/notifications/read-all", headers=headers).json["marked"] == 1
    assert client.get("/api/notifications", headers=headers).json["unread"] == 0


def test_nobody_reads_another_accounts_notification(client, api_headers):
    staff, other = make_account(role=RoleId.STAFF), make_account(role=RoleId.STAFF)
    _machine, key = keyed_machine()
    client.post("/api/telemetry", json={"ph": 3}, headers=device(key))
    note_id = client.get("/api/notifications", headers=api_headers(staff)).json["data"][0]["id"]
    other_ids = [n["id"] for n in client.get("/api/notifications", headers=api_headers(other)).json["data"]]
    assert note_id not in other_ids
    stranger = make_account(role=RoleId.HOUSEHOLD)
    assert client.post(f"/api/notifications/{note_id}/read", headers=api_headers(stranger)).status_code == 404
    assert client.post("/api/notifications/abc/read", headers=api_headers(stranger)).status_code == 404


def test_preferences_choose_console_email_or_both(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    headers = api_headers(staff)
    assert (
        client.get("/api/notifications/preferences", headers=headers).json["data"]["alert_opened"]
        == "console"
    )
    res = client.put("/api/notifications/preferences", json={"alert_opened": "email"}, headers=headers)
    assert res.status_code == 200 and res.json["data"]["alert_opened"] == "email"
    _machine, key = keyed_machine()
    client.post("/api/telemetry", json={"ph": 3}, headers=device(key))
    assert client.get("/api/notifications", headers=headers).json["unread"] == 0  # e-mail only
    row = db.session.scalar(select(Notification).where(Notification.account_id == staff.id))
    # The queue runs at once in tests (immediate mode): the e-mail is already handed over.
    assert row.email_state == "sent" and row.in_console is False


def test_bad_preferences_are_refused(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    headers = api_headers(staff)
    for body, field in (
        ({"alert_opened": "pigeon"}, "alert_opened"),
        ({"weather": "both"}, "weather"),
        ({}, "body"),
    ):
        res = client.put("/api/notifications/preferences", json=body, headers=headers)
        assert res.status_code == 400 and res.json["field"] == field
    assert (
        client.get("/api/notifications/preferences", headers=headers).json["data"]["alert_opened"]
        == "console"
    )


def test_maintenance_assignment_and_overdue_tell_the_assignee(app):
    operator = make_account(role=RoleId.OPERATOR)
    req = make_request(assignee=operator)
    assert kinds(operator) == ["maintenance_assigned"]
    req.due_date = date.today() - timedelta(days=1)
    db.session.commit()
    assert hooks.notify_overdue_maintenance(date.today()) == 1
    assert hooks.notify_overdue_maintenance(date.today()) == 0  # once per due date
    assert sorted(kinds(operator)) == ["maintenance_assigned", "maintenance_overdue"]


def test_the_overdue_notice_dates_in_each_readers_style(app):
    english, filipino = make_account(role=RoleId.OPERATOR), make_account(role=RoleId.OPERATOR, language="fil")
    for assignee in (english, filipino):
        make_request(assignee=assignee).due_date = date(2026, 1, 5)
    db.session.commit()
    assert hooks.notify_overdue_maintenance(date(2026, 1, 7)) == 2

    def body(account) -> str:
        return db.session.scalar(
            select(Notification.body).where(
                Notification.account_id == account.id, Notification.kind == "maintenance_overdue"
            )
        )

    assert body(english) == "It was due on Jan 5, 2026."
    assert "Ene 5, 2026" in body(filipino) and "2026-01-05" not in body(filipino)


def test_a_container_marked_full_tells_machine_staff(app):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine("Digester South")
    container = make_container(machine, status="Not Full", container_no="WC-7")
    assert kinds(staff) == []
    container.status = "Full"
    db.session.commit()
    [title] = db.session.scalars(select(Notification.title).where(Notification.account_id == staff.id))
    assert title == "Waste container WC-7 is Full"


def test_an_accounts_own_events(app):
    account = make_account(role=RoleId.HOUSEHOLD)
    account.password_hash = "rehashed at sign-in"  # same password, stronger hash: no event
    db.session.commit()
    assert kinds(account) == []
    account.password_hash = "changed"
    account.session_epoch += 1
    account.modules = list(db.session.scalars(select(Module).where(Module.id.in_([1]))))
    db.session.commit()
    titles = set(db.session.scalars(select(Notification.title).where(Notification.account_id == account.id)))
    assert titles == {"Your password was changed.", "The modules you can open were changed."}
