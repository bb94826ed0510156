"""One figure, one definition: the dashboard, the city dashboard, the monthly report and My
household show the same waste (kg) and energy (kWh) for the same seeded month, equal to the
figures worked out by hand from the impact method (docs/impact.md)."""

from __future__ import annotations

import re
from calendar import monthrange

import pytest
from sqlalchemy import select

from sibol.extensions import db
from sibol.i18n import localtime
from sibol.identity import tenancy
from sibol.models import Barangay, EnergyReading, MemberCollection, RoleId, WasteCollection
from tests.factories import make_account
from tests.factories_admin import session_client
from tests.factories_household import make_member
from tests.factories_telemetry import device, hour_start, keyed_machine, readings_in

pytestmark = pytest.mark.usefixtures("fresh_identity")


@pytest.fixture
def world(app):
    """Barangay one: 40 kg + 12 kg collected today, 300 kWh typed for this month, a household
    that handed in 5 kg of it. Barangay two: 10 kg collected today, no energy."""
    today = localtime.today()
    first = db.session.scalar(select(Barangay).order_by(Barangay.id))
    second = Barangay(name="Barangay Impact Dos", is_active=True)
    db.session.add(second)
    db.session.commit()
    db.session.add_all(
        [
            WasteCollection(street="Rizal Street", collected_on=today, weight_g=40_000),
            WasteCollection(street="Mabini Street", collected_on=today, weight_g=12_000),
            EnergyReading(month=today.replace(day=1), kilowatts=300),
        ]
    )
    account = make_account(role=RoleId.HOUSEHOLD, first_name="Lina", last_name="Cruz")
    member = make_member("Lina Cruz")
    member.account_id = account.id
    db.session.add(MemberCollection(member_id=member.id, collected_on=today, waste_g=5_000, points=50))
    db.session.commit()
    with tenancy.scoped(second.id):
        db.session.add(WasteCollection(street="Luna Street", collected_on=today, weight_g=10_000))
        db.session.commit()
    return {"today": today, "first": first, "second": second, "household": account}


def test_every_page_shows_the_same_month_figures(client, api_headers, world):
    today, first = world["today"], world["first"]
    admin = make_account(role=RoleId.ADMIN, barangay_id=first.id)
    dashboard = client.get("/api/dashboard/summary", headers=api_headers(admin)).json
    assert dashboard["waste"]["monthly"]["totalKg"] == 52
    assert dashboard["energy"]["unit"] == "kWh"

    report = client.get(f"/api/reports/monthly?month={today:%Y-%m}", headers=api_headers(admin)).json
    assert report["waste"]["total"]["value"] == 52
    assert report["energy"]["unit"] == "kWh" and report["energy"]["value"] == 300

    city = make_account(role=RoleId.CITY_ADMIN, username="city.impact")
    body = client.get("/api/city/dashboard", headers=api_headers(city)).json
    rows = {r["barangay"]["id"]: r for r in body["items"]}
    assert (rows[first.id]["wasteKg"], rows[first.id]["energyKwh"]) == (52, 300)
    assert (rows[world["second"].id]["wasteKg"], rows[world["second"].id]["energyKwh"]) == (10, 0)
    assert (body["city"]["wasteKg"], body["city"]["energyKwh"]) == (62, 300)


def test_the_city_page_and_the_dashboard_page_say_kwh_for_the_month(app, world):
    city = session_client(app, make_account(role=RoleId.CITY_ADMIN, username="city.page"))
    html = city.get("/city").get_data(as_text=True)
    assert "Energy this month (kWh)" in html and "Energy (kW)" not in html
    assert re.search(r'data-total="waste">62<', html) and re.search(r'data-total="energy">300<', html)
    admin = session_client(app, make_account(role=RoleId.ADMIN, barangay_id=world["first"].id))
    page = admin.get("/dashboard?period=monthly").get_data(as_text=True)
    assert "Unit: kWh" in page and "kilowatts" not in page.split("<form")[0]


def test_my_household_shows_its_share_worked_by_hand(client, api_headers, app, world):
    days = monthrange(world["today"].year, world["today"].month)[1]
    assert days >= 28
    # This year the barangay collected 52 kg and made 300 kWh; the household handed in 5 kg.
    kwh = 300 * 5 / 52  # 28.846...
    co2e = 5 * 0.03 * 28 + kwh * 0.7122  # 4.2 kg from the dump's methane + 20.544 kg grid CO2
    body = client.get("/api/me/household", headers=api_headers(world["household"])).json
    assert body["impactThisYear"]["wasteKg"] == 5
    assert body["impactThisYear"]["energyKwh"] == round(kwh, 1) == 28.8
    assert body["impactThisYear"]["co2eKg"] == round(co2e, 1) == 24.7
    page = session_client(app, world["household"]).get("/household/my").get_data(as_text=True)
    assert "Your 5 kg this year: about 24.7 kg CO₂e avoided, 28.8 kWh." in page


def test_machine_weighings_and_power_agree_on_every_page(app, client, api_headers):
    machine, key = keyed_machine("Digester Impact")
    hour = hour_start(1)
    readings = readings_in(hour, (0, 30), voltage_v=250.0, current_a=8.0, weight_kg=20.0)
    assert client.post("/api/telemetry", json={"readings": readings}, headers=device(key)).status_code == 202
    month = localtime.to_local(hour.replace(tzinfo=None)).strftime("%Y-%m")
    if month != f"{localtime.today():%Y-%m}":  # the hour fell in last month: nothing to compare
        pytest.skip("the reading's hour is in the previous local month")
    admin = make_account(role=RoleId.ADMIN, barangay_id=machine.barangay_id)
    dashboard = client.get("/api/dashboard/summary", headers=api_headers(admin)).json
    report = client.get(f"/api/reports/monthly?month={month}", headers=api_headers(admin)).json
    city = make_account(role=RoleId.CITY_ADMIN, username="city.machines")
    rows = {
        r["barangay"]["id"]: r
        for r in client.get("/api/city/dashboard", headers=api_headers(city)).json["items"]
    }
    # 20 kg weighed twice; 250 V x 8 A = 2000 W for the hour = 2 kWh.
    assert dashboard["waste"]["monthly"]["totalKg"] == report["waste"]["total"]["value"] == 40
    assert rows[machine.barangay_id]["wasteKg"] == 40
    assert report["energy"]["value"] == rows[machine.barangay_id]["energyKwh"] == 2
    assert report["energy"]["source"] == "machines"
