"""The notification centre without JavaScript: a flapping alert is one line per machine, metric
and day, with the unread and not-acknowledged filters."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.telemetry import Alert, Notification
from tests.factories import make_account
from tests.factories_admin import session_client
from tests.factories_telemetry import device, iso, keyed_machine

pytestmark = pytest.mark.usefixtures("fresh_identity")


def text(res) -> str:
    return res.get_data(as_text=True)


def flap(client, key, times: int, start: int = 120) -> None:
    """pH out of range then three healthy readings, `times` times: an alert opened and closed each time."""
    readings = []
    minute = start
    for _ in range(times):
        for ph in (5.0, 7.0, 7.0, 7.0):
            readings.append({"ts": iso(minute), "ph": ph})
            minute -= 1
    assert client.post("/api/telemetry", json={"readings": readings}, headers=device(key)).status_code == 202


def lines(page: str) -> list[str]:
    body = page[page.index('id="notifications"') :]
    body = body[body.index("<tbody") : body.index("</tbody>")]
    return body.split("</tr>")[:-1]


def test_a_flapping_alert_is_one_line_with_its_counts(app, client):
    staff = make_account(role=RoleId.STAFF)
    _machine, key = keyed_machine("SIBOL Machine 1")
    flap(client, key, 3)
    client.post("/api/telemetry", json={"ts": iso(1), "temperature_c": 50}, headers=device(key))
    page = text(session_client(app, staff).get("/notifications"))
    rows = lines(page)
    assert len(rows) == 2, rows
    assert "SIBOL Machine 1: Temperature alert opened" in rows[0]
    assert "pH on SIBOL Machine 1: opened 3 times, closed 3 times today" in rows[1]
    assert "Latest: SIBOL Machine 1: pH alert closed" in rows[1] and 'data-label="When">today' in rows[1]
    assert rows[1].count('name="also"') == 5  # opening the line marks all six read


def test_opening_a_group_marks_all_its_notes_read_and_the_unread_filter(app, client):
    staff = make_account(role=RoleId.STAFF)
    _machine, key = keyed_machine("Digester Flap")
    flap(client, key, 2)
    web = session_client(app, staff)
    page = text(web.get("/notifications?show=unread"))
    [row] = lines(page)
    newest = row[row.index("/notifications/") :].split("/")[2]
    also = [part.split('"')[0] for part in row.split('name="also" value="')[1:]]
    res = web.post(f"/notifications/{newest}/read", data={"also": also})
    assert res.status_code == 302 and res.headers["Location"].startswith("/sibol-machines/alerts/")
    unread = db.session.scalars(
        select(Notification.id).where(Notification.account_id == staff.id, Notification.read_at.is_(None))
    ).all()
    assert unread == []
    page = text(web.get("/notifications?show=unread"))
    assert "No unread notifications." in page and 'aria-current="page">Unread<' in page
    assert "Digester Flap" in text(web.get("/notifications"))


def test_another_accounts_note_ids_in_also_are_ignored(app, client):
    staff, other = make_account(role=RoleId.STAFF), make_account(role=RoleId.STAFF)
    _machine, key = keyed_machine()
    flap(client, key, 1)
    mine, theirs = (
        db.session.scalars(select(Notification.id).where(Notification.account_id == a.id)).first()
        for a in (staff, other)
    )
    web = session_client(app, staff)
    assert web.post(f"/notifications/{mine}/read", data={"also": [str(theirs), "x", "-5"]}).status_code == 302
    assert db.session.get(Notification, theirs).read_at is None
    assert web.post(f"/notifications/{theirs}/read").status_code == 404


def test_the_not_acknowledged_filter(app, client):
    staff = make_account(role=RoleId.STAFF)
    _machine, key = keyed_machine("Digester Ack")
    client.post("/api/telemetry", json={"ts": iso(5), "ph": 5.0}, headers=device(key))
    client.post("/api/telemetry", json={"ts": iso(4), "temperature_c": 50}, headers=device(key))
    web = session_client(app, staff)
    page = text(web.get("/notifications?show=unacknowledged"))
    assert len(lines(page)) == 2 and page.count(">Not acknowledged</a>") == 2
    ph = db.session.scalar(select(Alert).where(Alert.metric == "ph"))
    web.post("/sibol-machines/alerts/acknowledge", data={"one": str(ph.id)})
    page = text(web.get("/notifications?show=unacknowledged"))
    [row] = lines(page)
    assert "Temperature alert opened" in row
    everything = text(web.get("/notifications"))
    assert ">Acknowledged</span>" in everything and len(lines(everything)) == 2
    # An unknown filter shows everything; a household account has no alert filter.
    assert len(lines(text(web.get("/notifications?show=bogus")))) == 2
    household = make_account(role=RoleId.HOUSEHOLD)
    assert "Alerts not acknowledged" not in text(session_client(app, household).get("/notifications"))
