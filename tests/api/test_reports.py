"""/reports/monthly and /api/reports/monthly: the figures of a month beside the month before,
equal to the dashboard's; Admin and Barangay Staff only; bad months named; Manila month edges."""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest

from sibol.dashboard import service as dashboard_service
from sibol.extensions import db
from sibol.i18n import localtime
from sibol.models import (
    Barangay,
    ClaimState,
    MaintenanceEvent,
    MaintenanceRequest,
    MemberCollection,
    RewardClaim,
    RoleId,
)
from sibol.models.telemetry import Alert
from sibol.telemetry import rollups
from tests.factories import make_account, make_machine
from tests.factories_admin import session_client
from tests.factories_household import make_member, make_reward, make_waste
from tests.factories_telemetry import device, hour_start, keyed_machine, readings_in

pytestmark = pytest.mark.usefixtures("fresh_identity")

_numbers = iter(range(90_000, 99_999))


def utc(*args) -> datetime:
    """A naive UTC instant, as stored."""
    return datetime(*args)


def credit(member, day: date, points: int, grams: int = 1000) -> None:
    db.session.add(MemberCollection(member_id=member.id, collected_on=day, waste_g=grams, points=points))
    db.session.commit()


def claim(member, reward, at: datetime, points: int, state: str = ClaimState.REDEEMED) -> None:
    db.session.add(
        RewardClaim(reward_id=reward.id, member_id=member.id, points_spent=points, claimed_at=at, state=state)
    )
    db.session.commit()


def request_row(opened: date, *, created_at: datetime, completed: date | None = None, completed_at=None):
    row = MaintenanceRequest(
        request_number=next(_numbers),
        issue="Pump leaks",
        priority="mild",
        status="completed" if completed else "requested",
        request_date=opened,
        date_completed=completed,
        created_at=created_at,
    )
    db.session.add(row)
    db.session.flush()
    if completed_at is not None:
        db.session.add(MaintenanceEvent(request_id=row.id, kind="completed", created_at=completed_at))
    db.session.commit()
    return row


def alert(machine, metric: str, at: datetime) -> None:
    db.session.add(Alert(machine_id=machine.id, metric=metric, value=1.0, low=6.5, high=8.0, opened_at=at))
    db.session.commit()


def report_json(client, headers, month: str | None = None) -> dict:
    res = client.get("/api/reports/monthly" + (f"?month={month}" if month else ""), headers=headers)
    assert res.status_code == 200, res.get_data(as_text=True)
    return res.json


# Figures ---------------------------------------------------------------------------------------


def test_waste_and_energy_equal_the_dashboards_for_the_seeded_month(client, api_headers, seeded):
    staff = make_account(role=RoleId.STAFF)
    dashboard = client.get("/api/dashboard/summary", headers=api_headers(staff)).json
    monthly = dashboard["waste"]["monthly"]
    assert monthly["label"] == "March 2025"  # the sample's month

    report = report_json(client, api_headers(staff), "2025-03")
    assert report["label"] == "March 2025" and report["previousLabel"] == "February 2025"
    assert report["waste"]["by"] == "street"
    assert report["waste"]["total"]["value"] == monthly["totalKg"] == 16
    assert [a["name"] for a in report["waste"]["areas"]][: len(monthly["streets"])] == monthly["streets"]
    for area in report["waste"]["areas"]:
        if area["name"] in monthly["streets"]:
            assert area["value"] == monthly["kg"][monthly["streets"].index(area["name"])]

    # Energy: the dashboard's January-March table against each month's report.
    energy = {s["year"]: s["kilowatts"] for s in dashboard["energy"]["series"]}
    for index, month in enumerate(("01", "02", "03")):
        figures = report_json(client, api_headers(staff), f"2025-{month}")["energy"]
        assert figures["unit"] == "kWh" and figures["value"] == energy[2025][index]
    assert report_json(client, api_headers(staff), "2025-01")["energy"]["previous"] is None  # no December row


def test_waste_figures_equal_the_dashboard_service_for_any_month(app, client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    make_waste("Rizal Street", date(2026, 3, 2), 1500)
    make_waste("Mabini Street", date(2026, 3, 31), 2250)
    make_waste("Rizal Street", date(2026, 2, 27), 1000)
    make_waste("Luna Street", date(2026, 2, 1), 500)
    make_waste("Rizal Street", date(2026, 4, 1), 9000)  # the month after: in neither
    march = dashboard_service.waste_between(date(2026, 3, 1), date(2026, 4, 1))
    report = report_json(client, api_headers(staff), "2026-03")["waste"]
    assert report["total"] == {"value": march["total_kg"], "previous": 1.5, "change": 2.25, "percent": 150.0}
    assert march["total_kg"] == 3.75
    assert report["areas"] == [
        {"name": "Rizal Street", "value": 1.5, "previous": 1.0, "change": 0.5, "percent": 50.0},
        {"name": "Mabini Street", "value": 2.25, "previous": 0, "change": 2.25, "percent": None},
        {"name": "Luna Street", "value": 0, "previous": 0.5, "change": -0.5, "percent": -100.0},
    ]
    # The dashboard itself, anchored on the newest collection (April), agrees with April's report.
    april = report_json(client, api_headers(staff), "2026-04")["waste"]["total"]["value"]
    assert dashboard_service.waste_summary()["monthly"]["total_kg"] == april == 9


def test_points_households_maintenance_and_alerts_with_the_month_before(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    ana, ben, cora = make_member("Ana"), make_member("Ben"), make_member("Cora")
    credit(ana, date(2026, 3, 3), 30)
    credit(ana, date(2026, 3, 20), 45)
    credit(ben, date(2026, 3, 31), 15)
    credit(cora, date(2026, 2, 10), 60)
    reward = make_reward("Rice 1 kg", points=50)
    claim(ana, reward, utc(2026, 3, 5, 2), 50)
    claim(ben, reward, utc(2026, 3, 6, 2), 50, state=ClaimState.OPEN)
    claim(ben, reward, utc(2026, 3, 7, 2), 50, state=ClaimState.CANCELLED)  # released: not claimed
    claim(cora, reward, utc(2026, 2, 7, 2), 50)

    # Opened in March: 2; completed in March: 2 (6 h and 30 h); February: 1 opened, 1 completed in 2 days.
    request_row(
        date(2026, 3, 2),
        created_at=utc(2026, 3, 2, 0),
        completed=date(2026, 3, 2),
        completed_at=utc(2026, 3, 2, 6),
    )
    request_row(date(2026, 3, 9), created_at=utc(2026, 3, 9, 0))
    request_row(
        date(2026, 2, 26),
        created_at=utc(2026, 2, 26, 0),
        completed=date(2026, 3, 1),
        completed_at=utc(2026, 2, 27, 6),
    )
    request_row(
        date(2026, 2, 3), created_at=utc(2026, 2, 3, 0), completed=date(2026, 2, 5)
    )  # no events: 2 days

    machine = make_machine("Digester Report")
    alert(machine, "ph", utc(2026, 3, 4, 1))
    alert(machine, "ph", utc(2026, 3, 14, 1))
    alert(machine, "temperature_c", utc(2026, 2, 14, 1))

    report = report_json(client, api_headers(staff), "2026-03")
    assert report["households"] == {"value": 2, "previous": 1, "change": 1, "percent": 100.0}
    assert report["points"]["awarded"] == {"value": 90, "previous": 60, "change": 30, "percent": 50.0}
    assert report["points"]["claimed"] == {"value": 100, "previous": 50, "change": 50, "percent": 100.0}
    assert report["maintenance"]["opened"] == {"value": 2, "previous": 2, "change": 0, "percent": 0.0}
    assert report["maintenance"]["closed"] == {"value": 2, "previous": 1, "change": 1, "percent": 100.0}
    assert report["maintenance"]["hoursToClose"] == {
        "value": 18.0,
        "previous": 48.0,
        "change": -30.0,
        "percent": -62.5,
    }
    assert report["alerts"]["total"] == {"value": 2, "previous": 1, "change": 1, "percent": 100.0}
    assert [(r["label"], r["value"], r["previous"]) for r in report["alerts"]["byMetric"]] == [
        ("pH", 2, 0),
        ("Temperature", 0, 1),
    ]


def test_the_page_shows_the_same_figures_without_javascript(app, client, login, seeded):
    admin = make_account(role=RoleId.ADMIN)
    login(admin)
    html = client.get("/reports/monthly?month=2025-03").get_data(as_text=True)
    assert "<h1>Monthly report</h1>" in html and 'data-report-month="2025-03"' in html
    total = re.search(
        r'<tfoot>\s*<tr>\s*<th scope="row">Total</th>\s*<td data-label="March 2025">([^<]+)</td>'
        r'\s*<td data-label="February 2025">([^<]+)</td>',
        html,
    )
    february = dashboard_service.waste_between(date(2025, 2, 1), date(2025, 3, 1))["total_text"]
    assert total and total.groups() == ("16 kg", f"{february} kg")
    assert '<th scope="col">March 2025</th>' in html and '<th scope="col">February 2025</th>' in html
    for title in ("Waste collected", "Energy produced", "Households and points", "Maintenance"):
        assert f">{title}</h2>" in html
    assert 'data-section="alerts"' not in html  # no machine reports: no alerts section
    assert 'href="/reports/monthly?month=2025-02" rel="prev"' in html
    assert 'href="/reports/monthly?month=2025-04" rel="next">April 2025 →' in html
    assert "data-print hidden" in html and "/css/report.css" in html
    assert "Barangay Fortune" in html.split("data-running-header", 1)[1].split("</p>", 1)[0]


def test_machine_weighings_and_power_equal_the_dashboards_this_month(app, client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    _machine, key = keyed_machine("Digester Now")
    hour = hour_start(1)
    readings = readings_in(hour, (0, 30), voltage_v=250.0, current_a=8.0, weight_kg=20.0)
    assert client.post("/api/telemetry", json={"readings": readings}, headers=device(key)).status_code == 202
    dashboard = client.get("/api/dashboard/summary", headers=api_headers(staff)).json
    month = localtime.to_local(hour.replace(tzinfo=None)).strftime("%Y-%m")
    report = report_json(client, api_headers(staff), month)
    assert report["waste"]["by"] == "machine"
    assert report["waste"]["areas"][0]["name"] == "Digester Now"
    if dashboard["waste"]["monthly"]["label"] == report["label"]:  # not across a month's edge
        assert report["waste"]["total"]["value"] == dashboard["waste"]["monthly"]["totalKg"] == 40
        this_year = next(s for s in dashboard["energy"]["series"] if s["year"] == int(month[:4]))
        assert report["energy"] == {
            "unit": "kWh",
            "source": "machines",
            "value": this_year["kilowatts"][-1],
            "previous": None,
            "change": None,
            "percent": None,
        }
        assert report["energy"]["value"] == 2.0  # 2000 W for an hour
    assert report["alerts"] is not None  # a machine reports: the alerts section shows


# Month edges in Asia/Manila --------------------------------------------------------------------


def test_month_edges_are_manila_midnight(client, api_headers, app):
    assert localtime.time_zone_name() == "Asia/Manila"
    staff = make_account(role=RoleId.STAFF)
    member, reward = make_member("Edge"), make_reward("Soap", points=10)
    # 2026-02-28 16:00 UTC is 2026-03-01 00:00 in Manila.
    claim(member, reward, utc(2026, 2, 28, 15, 59), 7)  # Feb 28, 23:59 Manila
    claim(member, reward, utc(2026, 2, 28, 16, 0), 11)  # Mar 1, 00:00 Manila
    claim(member, reward, utc(2026, 3, 31, 15, 59), 13)  # Mar 31, 23:59 Manila
    claim(member, reward, utc(2026, 3, 31, 16, 0), 17)  # Apr 1, 00:00 Manila
    machine = make_machine("Edge Digester")
    alert(machine, "ph", utc(2026, 2, 28, 15, 59))
    alert(machine, "ph", utc(2026, 2, 28, 16, 1))
    alert(machine, "ph", utc(2026, 3, 31, 16, 0))
    report = report_json(client, api_headers(staff), "2026-03")
    assert report["points"]["claimed"]["value"] == 11 + 13
    assert report["points"]["claimed"]["previous"] == 7
    assert report["alerts"]["total"]["value"] == 1 and report["alerts"]["total"]["previous"] == 1


def test_machine_waste_uses_manila_days_at_the_edges(app, client, api_headers):
    """A weighing at 17:00 UTC on Feb 28 is March in Manila: its hourly rollup counts for March."""
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine("Edge Weigher")
    # The API refuses readings older than 30 days; the rollups are folded as ingestion folds them.
    rollups.add_readings(
        machine.id,
        [
            {"ts": utc(2026, 2, 28, 15, 30), "weight_kg": 5.0},  # Feb 28, 23:30 Manila
            {"ts": utc(2026, 2, 28, 17, 0), "weight_kg": 7.0},  # Mar 1, 01:00 Manila
            {"ts": utc(2026, 3, 15, 4, 0), "weight_kg": 3.0},  # mid-March: from the daily rollup
            {"ts": utc(2026, 3, 31, 16, 30), "weight_kg": 9.0},  # Apr 1, 00:30 Manila
        ],
    )
    db.session.commit()
    report = report_json(client, api_headers(staff), "2026-03")
    assert report["waste"]["by"] == "machine"
    assert report["waste"]["total"]["value"] == 10 and report["waste"]["total"]["previous"] == 5


def test_missing_month_is_the_current_manila_month(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    report = report_json(client, api_headers(staff))
    assert report["month"] == localtime.today().strftime("%Y-%m")


# Bad months ------------------------------------------------------------------------------------


def _next_month_key() -> str:
    today = localtime.today()
    return f"{today.year + (today.month == 12)}-{today.month % 12 + 1:02d}"


@pytest.mark.parametrize("bad", ["2026-13", "abc", "2026-00", "2026-3", "1999-12", "2026-03-01", "NEXT"])
def test_bad_months_are_refused_naming_the_field(client, api_headers, login, bad):
    bad = _next_month_key() if bad == "NEXT" else bad
    staff = make_account(role=RoleId.STAFF)
    res = client.get(f"/api/reports/monthly?month={bad}", headers=api_headers(staff))
    assert res.status_code == 400 and res.json["field"] == "month"
    assert "Month" in res.json["message"]
    login(staff)
    page = client.get(f"/reports/monthly?month={bad}")
    html = page.get_data(as_text=True)
    assert page.status_code == 400
    assert re.search(r'<p class="field__error" id="month-error">Month [^<]+</p>', html)
    assert 'aria-invalid="true"' in html and "data-section" not in html


# Access ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", [RoleId.OPERATOR, RoleId.HOUSEHOLD])
def test_other_roles_are_refused(app, client, api_headers, role):
    account = make_account(role=role)
    res = client.get("/api/reports/monthly", headers=api_headers(account))
    assert res.status_code == 403 and res.json["message"] == "Your role does not allow this."
    web = session_client(app, account)
    page = web.get("/reports/monthly")
    assert page.status_code == 403 and "Your role does not allow this." in page.get_data(as_text=True)
    assert "data-report-link" not in web.get("/dashboard").get_data(as_text=True)


def test_anonymous_is_sent_to_sign_in(client):
    assert client.get("/api/reports/monthly").status_code == 401
    res = client.get("/reports/monthly")
    assert res.status_code == 302 and "/login" in res.headers["Location"]


@pytest.mark.parametrize("role", [RoleId.ADMIN, RoleId.STAFF])
def test_admin_and_staff_reach_it_from_the_dashboard(app, role):
    parang = Barangay(name="Barangay Parang")  # Seeding makes only the first barangay
    db.session.add(parang)
    db.session.commit()
    account = make_account(role=role, barangay_id=parang.id)
    web = session_client(app, account)
    dashboard = web.get("/dashboard").get_data(as_text=True)
    assert 'href="/reports/monthly" data-report-link>Monthly report</a>' in dashboard
    page = web.get("/reports/monthly")
    assert page.status_code == 200
    running = page.get_data(as_text=True).split("data-running-header", 1)[1].split("</p>", 1)[0]
    assert "Barangay Parang" in running and localtime.today().strftime("%B %Y") in running


def test_machine_energy_uses_manila_months(app, client, api_headers):
    """kWh per local month: an hour of 1000 W at 16:00 UTC on Feb 28 is March in Manila."""
    staff = make_account(role=RoleId.STAFF)
    machine = make_machine("Edge Generator")
    rollups.add_readings(
        machine.id,
        [
            {
                "ts": utc(2026, 2, 28, 15, 0),
                "voltage_v": 250.0,
                "current_a": 2.0,
            },  # 500 W, Feb 28 23:00 Manila
            {
                "ts": utc(2026, 2, 28, 16, 0),
                "voltage_v": 250.0,
                "current_a": 4.0,
            },  # 1000 W, Mar 1 00:00 Manila
            {"ts": utc(2026, 3, 31, 16, 0), "voltage_v": 250.0, "current_a": 8.0},  # Apr 1 00:00 Manila
        ],
    )
    db.session.commit()
    energy = report_json(client, api_headers(staff), "2026-03")["energy"]
    assert energy == {
        "unit": "kWh",
        "source": "machines",
        "value": 1.0,
        "previous": 0.5,
        "change": 0.5,
        "percent": 100.0,
    }


def test_the_total_counts_every_street_though_the_dashboard_lists_twelve(client, api_headers):
    staff = make_account(role=RoleId.STAFF)
    for n in range(14):
        make_waste(f"Street {n}", date(2026, 5, 4), 1000)
    dashboard = client.get("/api/dashboard/summary", headers=api_headers(staff)).json["waste"]["monthly"]
    assert len(dashboard["streets"]) == dashboard_service.MAX_STREETS and dashboard["totalKg"] == 14
    report = report_json(client, api_headers(staff), "2026-05")["waste"]
    assert len(report["areas"]) == 14 and report["total"]["value"] == 14
