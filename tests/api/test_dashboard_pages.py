"""/dashboard and /api/dashboard: every figure is in the HTML, from the database."""

import json
import re
from datetime import date, timedelta

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import Barangay, EnergyReading, RoleId, WasteCollection
from tests.factories import make_account
from tests.factories_household import make_schedule
from tests.support.html import on_the_wire


def html_of(client, url="/dashboard") -> str:
    res = client.get(url)
    assert res.status_code == 200
    return res.get_data(as_text=True)


def test_greeting_uses_the_default_or_the_users_barangay(client, login):
    login(make_account(first_name="Liza"))
    assert "Welcome to Barangay Fortune, Liza" in html_of(client)
    client.post("/logout")
    parang = Barangay(name="Barangay Parang")  # Seeding makes only the first barangay
    db.session.add(parang)
    db.session.commit()
    login(make_account(first_name="Nilo", barangay_id=parang.id))
    html = html_of(client)
    assert "Welcome to Barangay Parang, Nilo" in html and "data-today" in html


def test_dashboard_shows_the_three_totals_and_figures_without_javascript(client, login, seeded):
    login(make_account())
    html = html_of(client)
    totals = re.findall(r"(Weekly|Monthly|Yearly) total: <strong>([\d.]+) kg</strong>", html)
    assert totals == [("Weekly", "4"), ("Monthly", "16"), ("Yearly", "192")]
    weekly = html.split('data-waste-period="weekly"', 1)[1].split("</table>", 1)[0]
    assert re.findall(r'</span>([^<]+)</span></td><td data-label="Waste \(kg\)">([\d.]+)</td>', weekly) == [
        ("Rizal Street", "1.5"),
        ("Mabini Street", "1.2"),
        ("Bonifacio Street", "1.3"),
    ]
    assert 'data-waste-period="monthly" hidden' in html and "data-waste-total>4</span>" in html
    for stage in ("Filtering", "Slurry Making", "Biogas Generation", "Final Output"):
        assert f'<span class="process__name">{stage}</span>' in html
    assert 'process__step--active" aria-current="step"' in html
    assert "Unit: kWh" in html and re.search(r'<th scope="col">2024</th>\s*<th scope="col">2025</th>', html)
    assert re.search(r"<td[^>]*>January</td><td[^>]*>120</td><td[^>]*>140</td>", html)
    schedule = html.split('id="schedule-title"', 1)[1].split("</table>", 1)[0]
    assert [a for a in ("Package 1", "Package 2", "Package 3") if a in schedule] == [
        "Package 1",
        "Package 2",
        "Package 3",
    ]
    props = json.loads(
        html.split('<script type="application/json" id="dashboard-data">', 1)[1].split("</script>", 1)[0]
    )
    assert props["waste"]["yearly"]["kg"] == [60, 70, 62] and props["period"] == "weekly"
    assert "/static/dist/assets/dashboard-panels-" in html


def test_period_in_the_address_selects_the_figures(client, login, seeded):
    login(make_account())
    html = html_of(client, "/dashboard?period=yearly")
    assert "data-waste-total>192</span>" in html and '<option value="yearly" selected>' in html
    assert "data-waste-total>4</span>" in html_of(client, "/dashboard?period=bogus")


def test_empty_database_says_so(client, login):
    login(make_account())
    html = html_of(client)
    assert "No waste collections recorded yet." in html
    assert "No collections scheduled." in html and "No energy readings yet." in html


def test_summary_api(client, api_headers, seeded):
    res = client.get("/api/dashboard/summary", headers=api_headers(make_account(role=RoleId.HOUSEHOLD)))
    assert res.status_code == 200
    body = res.json
    assert [body["waste"][p]["totalText"] for p in ("weekly", "monthly", "yearly")] == ["4", "16", "192"]
    assert body["waste"]["monthly"]["kg"] == [5, 6, 5] and body["waste"]["weekly"]["unit"] == "kg"
    assert body["process"] == {
        "stages": ["Filtering", "Slurry Making", "Biogas Generation", "Final Output"],
        "stepSeconds": 3,
    }
    assert body["energy"]["unit"] == "kWh" and len(body["energy"]["series"]) == 2
    assert [row["area"] for row in body["schedule"]] == ["Package 1", "Package 2", "Package 3"]
    assert body["barangay"] == "Barangay Fortune"


def test_recorded_collections_replace_the_sample(client, api_headers, login, seeded):
    headers = api_headers(make_account())
    today = date.today().isoformat()
    for street, kg in (("Luna Street", "2"), ("Luna Street", 1.5), ("Del Pilar Street", "0.75")):
        res = client.post(
            "/api/dashboard/waste-collections",
            headers=headers,
            json={"street": street, "collectedOn": today, "weightKg": kg},
        )
        assert res.status_code == 201, res.json
    weekly = client.get("/api/dashboard/summary", headers=headers).json["waste"]["weekly"]
    assert weekly["streets"] == ["Luna Street", "Del Pilar Street"] and weekly["kg"] == [3.5, 0.75]
    assert weekly["totalText"] == "4.25"


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        ({"street": "A", "collectedOn": "2026-01-01", "weightKg": "-1"}, "weightKg", 400),
        ({"street": "A", "collectedOn": "2026-01-01", "weightKg": "ten"}, "weightKg", 400),
        ({"street": "A", "collectedOn": "yesterday", "weightKg": 1}, "collectedOn", 400),
        ({"street": "", "collectedOn": "2026-01-01", "weightKg": 1}, "street", 400),
        ({"street": "x" * 101, "collectedOn": "2026-01-01", "weightKg": 1}, "street", 400),
    ],
)
def test_bad_waste_records_are_refused(client, api_headers, body, field, status):
    res = client.post("/api/dashboard/waste-collections", headers=api_headers(make_account()), json=body)
    assert res.status_code == status and res.json["field"] == field
    assert db.session.scalar(select(func.count(WasteCollection.id))) == 0


def test_energy_readings(client, api_headers):
    headers = api_headers(make_account())
    ok = client.post(
        "/api/dashboard/energy-readings", headers=headers, json={"month": "2026-01", "kilowatts": 90}
    )
    assert ok.status_code == 201 and ok.json["energyReading"]["month"] == "2026-01"
    dup = client.post(
        "/api/dashboard/energy-readings", headers=headers, json={"month": "2026-01", "kilowatts": 5}
    )
    assert dup.status_code == 409
    for body, field in (
        ({"month": "Jan", "kilowatts": 1}, "month"),
        ({"month": "2026-13", "kilowatts": 1}, "month"),
        ({"month": "2026-02", "kilowatts": -1}, "kilowatts"),
        ({"month": "2026-02", "kilowatts": "x"}, "kilowatts"),
    ):
        res = client.post("/api/dashboard/energy-readings", headers=headers, json=body)
        assert res.status_code == 400 and res.json["field"] == field
    assert db.session.scalar(select(func.count(EnergyReading.id))) == 1


def test_dashboard_needs_its_module(client, api_headers, login):
    assert client.get("/api/dashboard/summary").status_code == 401
    assert client.get("/dashboard").status_code == 302
    nobody = make_account(modules=[4])
    assert client.get("/api/dashboard/summary", headers=api_headers(nobody)).status_code == 403
    res = client.post(
        "/api/dashboard/waste-collections",
        headers=api_headers(nobody),
        json={"street": "A", "collectedOn": "2026-01-01", "weightKg": 1},
    )
    assert res.status_code == 403


def test_schedule_panel_follows_the_household_schedules(client, login):
    login(make_account())
    make_schedule(areas=("Package 8",), person="Later", when=date.today() + timedelta(days=4))
    make_schedule(areas=("Package 9",), person="Done", when=date.today(), status="Collected")
    schedule = html_of(client).split('id="schedule-title"', 1)[1].split("</table>", 1)[0]
    assert "Package 8" in schedule and "Later" in schedule and "Package 9" not in schedule


def test_dashboard_with_its_islands_stays_under_150_kb_on_the_wire(client, login, seeded):
    """docs/performance.md: Chart.js is tree-shaken and the page loads no React."""
    login(make_account())
    _html, assets, total = on_the_wire(client, "/dashboard")
    assert any("dashboard-panels" in a for a in assets) and not any("/react-" in a for a in assets)
    assert total < 150 * 1024, f"{total} bytes"


def test_record_forms_save_rows_that_replace_the_sample(client, login, seeded):
    login(make_account())
    res = client.post(
        "/dashboard/waste-collections",
        data={
            "street": "Luna Street",
            "collectedOn": date.today().isoformat(),
            "weightKg": "3.5",
            "period": "monthly",
        },
    )
    assert res.status_code == 302 and res.headers["Location"].endswith("/dashboard?period=monthly")
    html = html_of(client)
    assert "Waste collection recorded." in html and "Weekly total: <strong>3.5 kg</strong>" in html
    res = client.post(
        "/dashboard/energy-readings", data={"month": f"{date.today().year + 1}-02", "kilowatts": "210"}
    )
    assert res.status_code == 302
    assert re.search(
        r"<td[^>]*>February</td><td[^>]*>160</td><td[^>]*>210</td>", html_of(client)
    )  # 2025 and the new year


def test_record_forms_show_field_errors_and_save_nothing(client, login):
    login(make_account())
    res = client.post(
        "/dashboard/waste-collections", data={"street": "", "collectedOn": "soon", "weightKg": "-3"}
    )
    assert res.status_code == 400
    html = res.get_data(as_text=True)
    for message in (
        "Street is required.",
        "Date collected must be a valid date (YYYY-MM-DD).",
        "Weight cannot be negative.",
    ):
        assert message in html
    assert '<details class="record" open>' in html
    res = client.post("/dashboard/energy-readings", data={"month": "2026-1", "kilowatts": "lots"})
    assert res.status_code == 400
    assert "Month must be a valid month (YYYY-MM)." in res.get_data(as_text=True)
    assert db.session.scalar(select(func.count(WasteCollection.id))) == 0
    assert db.session.scalar(select(func.count(EnergyReading.id))) == 0
