"""The telemetry screens without JavaScript: Process Panels, Analytics, device page, alerts,
the bell and the notification centre."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.telemetry import Alert, DeviceKey
from tests.factories import make_account, make_machine
from tests.factories_admin import session_client
from tests.factories_telemetry import device, healthy, hour_start, iso, keyed_machine, readings_in

pytestmark = pytest.mark.usefixtures("fresh_identity")


def text(res) -> str:
    return res.get_data(as_text=True)


def test_process_panels_show_each_value_beside_its_range(app, client):
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine("Digester North")
    client.post(
        "/api/telemetry",
        json={"readings": [healthy(ts=iso(60)), healthy(ts=iso(2), ph=5.5)]},
        headers=device(key),
    )
    page = text(session_client(app, staff).get(f"/sibol-machines?tab=process-panels&machine={machine.id}"))
    ph = page[page.index('id="sensor-ph"') :]
    ph = ph[: ph.index("</article>")]
    assert "<span data-value>5.5</span>" in ph and "Out of range" in ph and "Healthy range: 6.5–8" in ph
    assert "2 min ago" in ph and "<polyline" in ph and "24-hour figures" in ph
    temp = page[page.index('id="sensor-temperature_c"') :]
    assert "Healthy" in temp[: temp.index("</article>")]
    assert "Alerts (1 open)" in page


def test_process_panels_of_a_machine_without_readings(app, client):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine()
    page = text(session_client(app, staff).get(f"/sibol-machines?tab=process-panels&machine={machine.id}"))
    assert (
        "has no device key yet" in page and "Last reading: <strong data-last-reading>never</strong>" in page
    )


def test_analytics_shows_energy_and_waste_with_their_tables(app, client):
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine()
    readings = readings_in(
        hour_start(2), (0, 20, 40), **healthy(voltage_v=200.0, current_a=5.0, weight_kg=10.0)
    )
    client.post("/api/telemetry", json={"readings": readings}, headers=device(key))
    web = session_client(app, staff)
    for period in ("24h", "7d", "30d", "1y"):
        page = text(web.get(f"/sibol-machines?tab=analytics&machine={machine.id}&range={period}"))
        energy = page[page.index('id="energy"') :]
        assert "<strong>1</strong> kWh" in energy[:400]  # 1000 W for one hour
        waste = page[page.index('id="waste-fed"') :]
        assert "<strong>30</strong> kg" in waste[:400]
        assert 'id="metric-ph"' in page and '">7.1</td>' in page


def test_machines_table_shows_last_reading_or_never(app, client):
    staff = make_account(role=RoleId.STAFF)
    _machine, key = keyed_machine("Reporting One")
    make_machine("Silent Two")
    client.post("/api/telemetry", json={"ph": 7}, headers=device(key))
    page = text(session_client(app, staff).get("/sibol-machines?tab=machines"))
    rows = re.findall(r"<tr><td[^>]*>#\d+</td><td[^>]*>([^<]+)</td>.*?</tr>", page, re.S)
    assert "Reporting One" in rows and "Silent Two" in rows
    assert re.search(r"Reporting One</td>.*?<td[^>]*>just now</td>", page, re.S)
    assert re.search(r"Silent Two</td>.*?<td[^>]*>never</td>", page, re.S)


def test_device_page_issues_a_key_shown_once_then_revokes_it(app, client):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine()
    web = session_client(app, staff)
    res = web.post(f"/sibol-machines/machines/{machine.id}/device-key")
    assert res.status_code == 200
    key = re.search(r'<code id="device-key">([^<]+)</code>', text(res)).group(1)
    assert client.post("/api/telemetry", json={"ph": 7}, headers=device(key)).status_code == 202
    again = text(web.get(f"/sibol-machines/machines/{machine.id}/device"))
    assert key not in again and "Issued" in again
    web.post(f"/sibol-machines/machines/{machine.id}/device-key/revoke")
    assert client.post("/api/telemetry", json={"ph": 7}, headers=device(key)).status_code == 401
    assert "Revoked" in text(web.get(f"/sibol-machines/machines/{machine.id}/device"))


def test_operators_see_the_device_page_but_cannot_issue(app):
    operator = make_account(role=RoleId.OPERATOR)
    machine = make_machine()
    web = session_client(app, operator)
    assert "Only Admin and Barangay Staff" in text(web.get(f"/sibol-machines/machines/{machine.id}/device"))
    web.post(f"/sibol-machines/machines/{machine.id}/device-key")
    assert db.session.get(DeviceKey, machine.id) is None


def test_threshold_form_saves_and_refuses_bad_input(app):
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine()
    web = session_client(app, staff)
    url = f"/sibol-machines/machines/{machine.id}/thresholds"
    res = web.post(url, data={"ph_min": "6", "ph_max": "8.5"}, follow_redirects=True)
    assert "Healthy ranges saved." in text(res) and 'name="ph_min" value="6.0"' in text(res)
    bad = web.post(url, data={"ph_min": "nine", "ph_max": "8.5"}, follow_redirects=True)
    assert "ph.min must be a finite number" in text(bad) and 'name="ph_min" value="6.0"' in text(bad)


def test_alerts_view_detail_and_acknowledge(app, client):
    staff = make_account(role=RoleId.STAFF, first_name="Lito", last_name="Cruz")
    machine, key = keyed_machine("Digester West")
    client.post("/api/telemetry", json={"ts": iso(1), "methane_pct": 30}, headers=device(key))
    alert = db.session.scalar(select(Alert))
    web = session_client(app, staff)
    listing = text(web.get("/sibol-machines/alerts"))
    assert "Digester West" in listing and "Methane" in listing and "50–75" in listing
    assert "No closed alerts." in text(web.get("/sibol-machines/alerts?state=closed"))
    detail = web.get(f"/sibol-machines/alerts/{alert.id}")
    assert 'id="acknowledge"' in text(detail)
    done = web.post(f"/sibol-machines/alerts/{alert.id}/acknowledge", follow_redirects=True)
    assert "by Lito Cruz" in text(done) and 'id="acknowledge"' not in text(done)
    assert web.get("/sibol-machines/alerts/999999").status_code == 404
    assert web.get(f"/sibol-machines/alerts?machine={machine.id}").status_code == 200
    assert web.get("/sibol-machines/alerts?machine=999999").status_code == 404


def test_the_bell_counts_unread_and_the_centre_marks_them_read(app, client):
    staff = make_account(role=RoleId.STAFF)
    _machine, key = keyed_machine()
    web = session_client(app, staff)
    assert '<span class="topbar__count" data-unread>0</span>' in text(web.get("/dashboard"))
    client.post("/api/telemetry", json={"ph": 3}, headers=device(key))
    assert '<span class="topbar__count" data-unread>1</span>' in text(web.get("/dashboard"))
    centre = text(web.get("/notifications"))
    note_id = re.search(r'action="/notifications/(\d+)/read"', centre).group(1)
    opened = web.post(f"/notifications/{note_id}/read")
    assert opened.status_code == 302 and opened.headers["Location"].startswith("/sibol-machines/alerts/")
    assert "data-unread>0</span>" in text(web.get("/notifications"))


def test_notification_preferences_form(app):
    account = make_account(role=RoleId.HOUSEHOLD)
    web = session_client(app, account)
    res = web.post("/notifications/preferences", data={"account": "both"}, follow_redirects=True)
    assert "Notification settings saved." in text(res) and 'id="account-both" checked' in text(res)
    bad = web.post("/notifications/preferences", data={"account": "fax"}, follow_redirects=True)
    assert "account must be console, email or both" in text(bad) and 'id="account-both" checked' in text(bad)
    everything = web.post("/notifications/read-all", follow_redirects=True)
    assert "Every notification is marked read." in text(everything)


def test_a_page_of_machines_says_when_each_last_reported(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    reporting, key = keyed_machine("Reporting Three")
    silent = make_machine("Silent Four")
    client.post("/api/telemetry", json={"ph": 7}, headers=device(key))
    rows = client.get("/api/machines?per_page=10", headers=api_headers(staff)).json["data"]
    by_id = {r["machine_id"]: r for r in rows}
    assert by_id[reporting.id]["lastReading"] == "just now" and by_id[reporting.id]["lastReadingAt"].endswith(
        "Z"
    )
    assert by_id[silent.id]["lastReading"] == "never" and by_id[silent.id]["lastReadingAt"] is None


def test_dashboard_panels_use_readings_where_machines_report(app, client):
    staff = make_account(role=RoleId.STAFF)
    web = session_client(app, staff)
    before = text(web.get("/dashboard"))
    assert "Unit: kWh" in before  # no machine reports: the stored rows
    _machine, key = keyed_machine("Digester Dash")
    readings = readings_in(hour_start(1), (0, 30), voltage_v=250.0, current_a=8.0, weight_kg=20.0)
    client.post("/api/telemetry", json={"readings": readings}, headers=device(key))
    page = text(web.get("/dashboard"))
    assert "Unit: kWh" in page and re.search(r'<td data-label="\d{4}">2</td>', page)  # 2000 W for an hour
    machine_row = (
        r'<th scope="col">Machine</th>.*?Digester Dash</span></td><td data-label="Waste \(kg\)">40</td>'
    )
    assert re.search(machine_row, page, re.S)
