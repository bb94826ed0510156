"""Acting on alerts: severity, status and how long open in the list, acknowledging one or many
(page form and API), the next open alert, the Machines badge and the Process Panels tiles."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.identity import tenancy
from sibol.models import Area, Barangay, ModuleId, RoleId, utcnow
from sibol.models.telemetry import Alert
from sibol.telemetry import triage
from tests.factories import make_account, make_machine
from tests.factories_admin import session_client
from tests.factories_telemetry import device, healthy, iso, keyed_machine

pytestmark = pytest.mark.usefixtures("fresh_identity")


def text(res) -> str:
    return res.get_data(as_text=True)


def make_alert(machine_id: int, metric: str = "ph", *, hours: float = 3, **fields) -> Alert:
    alert = Alert(
        machine_id=machine_id,
        metric=metric,
        value=fields.pop("value", 5.0),
        low=6.5,
        high=8.0,
        opened_at=utcnow() - timedelta(hours=hours),
        **fields,
    )
    db.session.add(alert)
    db.session.commit()
    return alert


def other_barangay_alert() -> Alert:
    other = Barangay(name="Barangay Kabila")
    db.session.add(other)
    db.session.commit()
    db.session.add(Area(name="Purok 1", barangay_id=other.id))
    db.session.commit()
    with tenancy.scoped(other.id):
        return make_alert(make_machine("Kabila Digester").id)


def row_of(page: str, alert_id: int) -> str:
    row = page[page.index(f'id="alert-{alert_id}"') :]
    return row[: row.index("</tr>")]


def test_severity_is_a_function_of_the_metric():
    assert [triage.severity(m) for m in ("ph", "methane_pct", "pressure_kpa")] == ["critical"] * 3
    assert {triage.severity(m) for m in ("temperature_c", "voltage_v", "water_l", "silent")} == {"warning"}


def test_the_list_shows_severity_status_how_long_and_links(app):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine("Digester Uno")
    ph = make_alert(machine.id, "ph", hours=3)
    warm = make_alert(machine.id, "temperature_c", hours=0.5, value=41.0)
    done = make_alert(machine.id, "voltage_v", hours=5, value=190.0)
    done.closed_at = done.opened_at + timedelta(minutes=40)
    db.session.commit()
    page = text(session_client(app, staff).get("/sibol-machines/alerts?state=all"))
    row = row_of(page, ph.id)
    assert 'data-severity="critical">Critical<' in row and "Open, not acknowledged" in row
    assert "open 3 h" in row
    assert f'href="/sibol-machines?tab=process-panels&amp;machine={machine.id}">Digester Uno</a>' in row
    assert f'href="/sibol-machines/alerts/{ph.id}">pH alert #{ph.id}</a>' in row
    assert f'name="one" value="{ph.id}"' in row and f'name="ids" value="{ph.id}"' in row
    assert 'data-label="Severity"' in row  # the table macro labels the cells for phone cards
    row = row_of(page, warm.id)
    assert 'data-severity="warning">Warning<' in row and "open 30 min" in row
    row = row_of(page, done.id)
    assert "Closed, not acknowledged" in row and "was open 40 min" in row
    assert 'id="next-open-alert"' in page and "Acknowledge selected" in page


def test_a_rows_button_acknowledges_that_alert_only(app):
    operator = make_account(role=RoleId.OPERATOR, first_name="Lito", last_name="Cruz")
    machine = make_machine()
    one, two = make_alert(machine.id), make_alert(machine.id, "methane_pct")
    web = session_client(app, operator)
    res = web.post(
        "/sibol-machines/alerts/acknowledge", data={"one": str(one.id), "ids": [str(two.id)], "state": "open"}
    )
    assert res.status_code == 302 and res.headers["Location"].endswith("/sibol-machines/alerts?state=open")
    page = text(web.get(res.headers["Location"]))
    assert "1 alert acknowledged." in page
    assert "Open, acknowledged" in row_of(page, one.id) and "Lito Cruz" in row_of(page, one.id)
    assert "Open, not acknowledged" in row_of(page, two.id)
    # The next open alert is the one still waiting.
    assert f'id="next-open-alert" href="/sibol-machines/alerts/{two.id}"' in page


def test_acknowledge_selected_and_the_already_acknowledged(app):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine()
    alerts = [make_alert(machine.id, m) for m in ("ph", "pressure_kpa", "water_l")]
    web = session_client(app, staff)
    ids = [str(a.id) for a in alerts[:2]]
    page = text(web.post("/sibol-machines/alerts/acknowledge", data={"ids": ids}, follow_redirects=True))
    assert "2 alerts acknowledged." in page
    page = text(
        web.post(
            "/sibol-machines/alerts/acknowledge",
            data={"ids": [str(alerts[0].id), str(alerts[2].id)]},
            follow_redirects=True,
        )
    )
    assert "1 alert acknowledged." in page and "1 alert was already acknowledged." in page
    assert db.session.scalar(select(Alert.acknowledged_at).where(Alert.id == alerts[2].id)) is not None


@pytest.mark.parametrize("data", [{}, {"ids": ["x"]}, {"one": "-1"}, {"ids": ["99999999999"]}])
def test_bad_selections_say_why_and_change_nothing(app, data):
    staff = make_account(role=RoleId.STAFF)
    alert = make_alert(make_machine().id)
    page = text(
        session_client(app, staff).post(
            "/sibol-machines/alerts/acknowledge", data=data, follow_redirects=True
        )
    )
    assert "Select at least one alert." in page or "must hold alert ids" in page
    assert db.session.get(Alert, alert.id).acknowledged_at is None


def test_another_barangays_alert_is_404_and_nothing_is_written(app, api_headers):
    staff = make_account(role=RoleId.STAFF)
    ours = make_alert(make_machine().id)
    theirs = other_barangay_alert()
    web = session_client(app, staff)
    res = web.post("/sibol-machines/alerts/acknowledge", data={"ids": [str(ours.id), str(theirs.id)]})
    assert res.status_code == 404
    assert web.post("/sibol-machines/alerts/acknowledge", data={"one": str(theirs.id)}).status_code == 404
    assert web.get(f"/sibol-machines/alerts/{theirs.id}").status_code == 404
    res = api_headers(staff)
    api = app.test_client()
    got = api.post("/api/alerts/acknowledge", json={"ids": [ours.id, theirs.id]}, headers=res)
    assert got.status_code == 404 and got.json["message"] == "Alert not found."
    assert api.post(f"/api/alerts/{theirs.id}/acknowledge", headers=res).status_code == 404
    with tenancy.unscoped():
        assert db.session.get(Alert, ours.id).acknowledged_at is None
        assert db.session.get(Alert, theirs.id).acknowledged_at is None


def test_roles_without_the_machines_module_are_refused(app, api_headers):
    alert = make_alert(make_machine().id)
    household = make_account(role=RoleId.HOUSEHOLD)
    no_machines = make_account(role=RoleId.OPERATOR, modules=[int(ModuleId.DASHBOARD)])
    for account in (household, no_machines):
        web = session_client(app, account)
        assert web.post("/sibol-machines/alerts/acknowledge", data={"one": str(alert.id)}).status_code == 403
        res = app.test_client().post(
            "/api/alerts/acknowledge", json={"ids": [alert.id]}, headers=api_headers(account)
        )
        assert res.status_code == 403
    assert app.test_client().post("/api/alerts/acknowledge", json={"ids": [alert.id]}).status_code == 401
    assert db.session.get(Alert, alert.id).acknowledged_at is None


def test_the_api_acknowledges_many_once_with_an_idempotency_key(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine()
    one, two = make_alert(machine.id), make_alert(machine.id, "methane_pct")
    headers = {**api_headers(staff), "Idempotency-Key": "ack-two"}
    res = client.post("/api/alerts/acknowledge", json={"ids": [one.id, two.id]}, headers=headers)
    assert res.status_code == 200 and res.json == {
        "success": True,
        "acknowledged": 2,
        "alreadyAcknowledged": 0,
    }
    again = client.post("/api/alerts/acknowledge", json={"ids": [one.id, two.id]}, headers=headers)
    assert again.json == res.json and again.headers.get("Idempotent-Replayed") == "true"
    fresh = client.post("/api/alerts/acknowledge", json={"ids": [one.id]}, headers=api_headers(staff))
    assert fresh.json["acknowledged"] == 0 and fresh.json["alreadyAcknowledged"] == 1
    single = client.post(f"/api/alerts/{one.id}/acknowledge", headers=api_headers(staff))
    assert single.status_code == 409
    listed = client.get("/api/alerts", headers=api_headers(staff)).json["data"]
    assert {a["metric"]: a["severity"] for a in listed} == {"ph": "critical", "methane_pct": "critical"}


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"ids": []},
        {"ids": "1"},
        {"ids": ["a"]},
        {"ids": [0]},
        {"ids": [True]},
        {"ids": list(range(1, 300))},
    ],
)
def test_the_api_refuses_bad_ids_naming_the_field(client, api_headers, body):
    staff = make_account(role=RoleId.STAFF)
    res = client.post("/api/alerts/acknowledge", json=body, headers=api_headers(staff))
    assert res.status_code == 400 and res.json["field"] == "ids", res.json


def test_unknown_ids_are_404_in_the_api(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    alert = make_alert(make_machine().id)
    res = client.post("/api/alerts/acknowledge", json={"ids": [alert.id, 987654]}, headers=api_headers(staff))
    assert res.status_code == 404
    assert db.session.get(Alert, alert.id).acknowledged_at is None


def test_the_alert_page_offers_the_next_open_alert_after_acknowledging(app):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine()
    first, second = make_alert(machine.id, hours=1), make_alert(machine.id, "methane_pct", hours=2)
    web = session_client(app, staff)
    page = text(web.post(f"/sibol-machines/alerts/{first.id}/acknowledge", follow_redirects=True))
    assert "Alert acknowledged." in page and "Open, acknowledged" in page
    assert f'id="next-open-alert" href="/sibol-machines/alerts/{second.id}"' in page
    page = text(web.post(f"/sibol-machines/alerts/{second.id}/acknowledge", follow_redirects=True))
    assert 'id="next-open-alert"' not in page and "No other open alert waits for acknowledgement." in page


def test_machines_show_a_badge_with_their_open_alerts(app, api_headers):
    staff = make_account(role=RoleId.STAFF)
    alarmed, calm = make_machine("Badge Alarmed"), make_machine("Badge Calm")
    make_alert(alarmed.id)
    make_alert(alarmed.id, "methane_pct")
    closed = make_alert(calm.id)
    closed.closed_at = utcnow()
    db.session.commit()
    res = app.test_client().get("/api/machines?page=1&per_page=100", headers=api_headers(staff))
    counts = {row["Name"]: row["openAlerts"] for row in res.json["data"]}
    assert counts["Badge Alarmed"] == 2 and counts["Badge Calm"] == 0
    page = text(session_client(app, staff).get("/sibol-machines?tab=machines&per_page=100"))
    assert (
        f'href="/sibol-machines/alerts?machine={alarmed.id}" data-open-alerts="2">Open alerts: 2</a>' in page
    )
    assert f'alerts?machine={calm.id}"' not in page


def test_a_tile_with_an_open_alert_is_never_healthy(app, client):
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine("Digester Tiles")
    readings = [healthy(ts=iso(10), ph=5.5), healthy(ts=iso(5)), healthy(ts=iso(4), methane_pct=30.0)]
    assert client.post("/api/telemetry", json={"readings": readings}, headers=device(key)).status_code == 202
    page = text(session_client(app, staff).get(f"/sibol-machines?tab=process-panels&machine={machine.id}"))

    def tile(metric: str) -> str:
        found = page[page.index(f'id="sensor-{metric}"') :]
        return found[: found.index("</article>")]

    # pH is back in range for one reading only: its alert stays open, so the tile says so.
    assert 'data-tile-state="alert">Alert open<' in tile("ph") and "Healthy<" not in tile("ph")
    assert "Open alert #" in tile("ph")
    assert 'data-tile-state="out">Out of range<' in tile("methane_pct")
    assert 'data-tile-state="ok">Healthy<' in tile("temperature_c")
