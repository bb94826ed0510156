"""CSV export of every table: the same rows as the table over all its pages, with its
search and filters, on the /api list endpoints and on the pages; refusals as the table refuses."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta

import pytest

from sibol.extensions import db
from sibol.household import rewards as reward_service
from sibol.i18n.localtime import to_local
from sibol.models import AccountStatus, RoleId, utcnow
from sibol.models.telemetry import Alert
from tests.factories import make_account, make_admin, make_machine
from tests.factories_household import make_member, make_reward, make_schedule
from tests.factories_machines import make_additive, make_container
from tests.factories_maintenance import make_request
from tests.factories_telemetry import device, healthy, hour_start, iso, keyed_machine

pytestmark = pytest.mark.usefixtures("fresh_identity")


def csv_rows(res) -> list[list[str]]:
    """The rows of a CSV answer (header first), after checking it is a proper CSV download."""
    assert res.status_code == 200, res.get_data(as_text=True)[:300]
    assert res.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert res.headers["Content-Disposition"].startswith('attachment; filename="')
    data = res.get_data()
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def json_pages(client, url: str, headers: dict, key: str = "data", per_page: int = 5) -> list[dict]:
    """Every row the table shows, page by page, through the same endpoint's JSON."""
    rows: list[dict] = []
    page = 1
    sep = "&" if "?" in url else "?"
    while True:
        body = client.get(f"{url}{sep}page={page}&per_page={per_page}", headers=headers).json
        rows += body[key]
        if page * per_page >= body["total"]:
            return rows
        page += 1


# Machines -------------------------------------------------------------------------------------


def test_machines_export_all_pages_of_a_search(client, api_headers):
    headers = api_headers(make_account(role=RoleId.OPERATOR))
    for i in range(12):
        make_machine(f"Niño Digester {i:02d}")
    make_machine("Other unit", area="Purok 2")
    make_machine('=HYPERLINK("http://evil.test")')
    rows = csv_rows(client.get("/api/machines?q=niño&format=csv", headers=headers))
    assert rows[0] == ["Machine ID", "Machine Name", "Area", "Status", "Last reading"]
    assert len(rows) - 1 == 12 > 10  # more than one page of the table
    assert [r[1] for r in rows[1:]] == [
        m["Name"] for m in json_pages(client, "/api/machines?q=niño", headers)
    ]
    assert rows[1][1:] == ["Niño Digester 00", "Purok 1", "No Status", "never"]


def test_machines_export_without_search_has_every_machine_and_defuses_formulas(client, api_headers):
    headers = api_headers(make_account(role=RoleId.OPERATOR))
    make_machine("@SUM(1+1)*cmd|' /C calc'!A0")
    make_machine("Plain")
    rows = csv_rows(client.get("/api/machines", headers={**headers, "Accept": "text/csv"}))
    names = [r[1] for r in rows[1:]]
    assert names == ["'@SUM(1+1)*cmd|' /C calc'!A0", "Plain"]


def test_machine_last_reading_is_exported(client, api_headers):
    headers = api_headers(make_account(role=RoleId.OPERATOR))
    machine, key = keyed_machine("Reporting unit")
    assert (
        client.post("/api/telemetry", json={"ts": iso(5), **healthy()}, headers=device(key)).status_code
        == 202
    )
    rows = csv_rows(client.get("/api/machines?format=csv", headers=headers))
    assert rows[1][1] == "Reporting unit"
    assert rows[1][4].startswith("20")  # a local date and time, not "never"


def test_machines_page_export_matches_its_search(client, login):
    login(make_account(role=RoleId.OPERATOR))
    for i in range(11):
        make_machine(f"Biodigester {i}")
    make_machine("Shredder")
    rows = csv_rows(client.get("/sibol-machines?tab=machines&q=bio&page=2&format=csv"))
    assert [r[1] for r in rows[1:]] == [f"Biodigester {i}" for i in range(11)]  # all pages, not page 2


def test_chemical_additives_and_waste_containers_export_with_search(client, api_headers, login):
    headers = api_headers(make_account(role=RoleId.OPERATOR))
    machine, other = make_machine("Unit A"), make_machine("Unit B")
    for i in range(12):
        make_additive(machine, chemical_input=f"Lime {i}", person_in_charge="Señora Peña")
    make_additive(machine, chemical_input="Molasses")
    make_additive(other, chemical_input="Lime elsewhere")
    make_container(machine, container_no="WC-1", status="Full")
    make_container(machine, container_no="WC-2", status="Empty")
    rows = csv_rows(
        client.get(f"/api/machines/{machine.id}/chemical-additives?q=lime&format=csv", headers=headers)
    )
    assert rows[0] == ["Chemical Input", "Stage", "Value", "Units", "Date", "Time", "Person in Charge"]
    assert sorted(r[0] for r in rows[1:]) == sorted(f"Lime {i}" for i in range(12))
    assert {r[6] for r in rows[1:]} == {"Señora Peña"}
    rows = csv_rows(
        client.get(f"/api/machines/{machine.id}/waste-containers?q=full&format=csv", headers=headers)
    )
    assert rows[1:] == [["WC-1", "Package 2", "Full", "2026-01-06"]]
    assert client.get("/api/machines/999999/waste-containers?format=csv", headers=headers).status_code == 404

    login(make_account(role=RoleId.OPERATOR))
    page_rows = csv_rows(client.get(f"/sibol-machines?tab=chemical-additives&machine={other.id}&format=csv"))
    assert [r[0] for r in page_rows[1:]] == ["Lime elsewhere"]


# Account administration -------------------------------------------------------------------------


def test_accounts_export_with_search_and_role_filter(client, api_headers):
    admin = make_admin(username="boss")
    for i in range(12):
        make_account(role=RoleId.OPERATOR, username=f"op{i:02d}", first_name="Niña", last_name=f"Operator{i}")
    make_account(role=RoleId.STAFF, username="staffer", first_name="Niña")
    make_account(role=RoleId.OPERATOR, username="waiting", first_name="Niña", status=AccountStatus.PENDING)
    headers = api_headers(admin)
    rows = csv_rows(client.get("/api/admin/accounts?q=niña&role=3&format=csv", headers=headers))
    assert rows[0] == ["Username", "Name", "Email", "Barangay", "Role", "Access", "Status"]
    table = json_pages(client, "/api/admin/accounts?q=niña&role=3", headers, key="users")
    assert (
        [r[0] for r in rows[1:]]
        == [u["Username"] for u in table]
        == [f"op{i:02d}" for i in reversed(range(12))]
    )
    assert rows[1][1] == "Niña Operator11"
    assert rows[1][4] == "Operator"
    assert sorted(rows[1][5].split("; ")) == sorted(table[0]["Access_names"])
    assert "SIBOL Machines" in rows[1][5]
    assert rows[1][6] == "Active"


def test_pending_accounts_export(client, api_headers, login):
    admin = make_admin()
    for i in range(11):
        make_account(username=f"new{i:02d}", status=AccountStatus.PENDING)
    rows = csv_rows(client.get("/api/admin/pending-accounts?format=csv", headers=api_headers(admin)))
    assert rows[0] == ["Username", "Name", "Email", "Barangay", "Role", "Signed up"]
    assert sorted(r[0] for r in rows[1:]) == [f"new{i:02d}" for i in range(11)]
    login(admin)
    page_rows = csv_rows(client.get("/admin?tab=approval&format=csv"))
    assert page_rows == rows


# Household --------------------------------------------------------------------------------------


def test_schedules_export_with_search_and_status(client, api_headers, login):
    headers = api_headers(make_account(role=RoleId.STAFF))
    for i in range(11):
        make_schedule(person=f"Kuya Ñol {i}", areas=("Purok 1", "Purok 3"), status="Collected", grams=12500)
    make_schedule(person="Kuya Ñol pending", status="Pending")
    make_schedule(person="Someone else", status="Collected")
    url = "/api/household/schedules?q=kuya&status=Collected"
    rows = csv_rows(client.get(url + "&format=csv", headers=headers))
    assert rows[0][:2] == ["Maintenance Person", "Area"]
    assert [r[0] for r in rows[1:]] == [s["maintenancePerson"] for s in json_pages(client, url, headers)]
    assert len(rows) - 1 == 11
    assert set(rows[1][1].split(", ")) == {"Purok 1", "Purok 3"}
    assert rows[1][2:] == ["Collected", "0917 000 0000", "2026-01-15", "12.5"]

    login(make_account(role=RoleId.STAFF))
    page_rows = csv_rows(client.get("/household?tab=schedule&q=kuya&status=Collected&format=csv"))
    assert page_rows == rows


def test_leaderboard_rewards_and_claims_export(client, api_headers):
    headers = api_headers(make_account(role=RoleId.STAFF))
    members = [make_member(f"Pamilya Peña {i}", points=1000 + i) for i in range(11)]
    make_member("Pamilya Inactive", points=5000, active=False)
    rows = csv_rows(client.get("/api/household/leaderboard?q=peña&status=Active&format=csv", headers=headers))
    assert rows[0] == ["#", "Name", "Barangay", "Points", "Status"]
    assert rows[1] == ["2", "Pamilya Peña 10", "Barangay Fortune", "1010", "Active"]  # rank among all
    assert len(rows) - 1 == 11

    for i in range(11):
        make_reward(f"Bigas {i}", points=10)
    make_reward("Bigas gone", status="Unavailable")
    rows = csv_rows(client.get("/api/household/rewards?q=bigas&status=Available&format=csv", headers=headers))
    assert [r[1] for r in rows[1:]] == [f"Bigas {i}" for i in range(11)]
    assert rows[1] == ["1", "Bigas 0", "All areas", "10", "Available"]

    reward = make_reward("Sardinas", points=1)
    for m in members:
        reward_service.claim_reward(reward.id, m.id)
    rows = csv_rows(client.get("/api/household/claims?q=sardinas&format=csv", headers=headers))
    assert rows[0] == ["#", "Name", "Reward", "Points", "Date Claimed", "State", "Code"]
    table = json_pages(client, "/api/household/claims?q=sardinas", headers)
    states = {"open": "Waiting for pick-up", "redeemed": "Redeemed", "cancelled": "Cancelled"}
    assert [(r[1], r[5]) for r in rows[1:]] == [(c["name"], states[c["state"]]) for c in table]
    assert sorted(r[1] for r in rows[1:]) == sorted(m.name for m in members)


# Maintenance ------------------------------------------------------------------------------------


def test_maintenance_export_with_tab_search_and_filters(client, api_headers, login):
    headers = api_headers(make_account(role=RoleId.OPERATOR))
    for i in range(11):
        make_request(issue=f"Pump leak {i}", priority="urgent")
    make_request(issue="Pump leak, mild", priority="mild")
    make_request(issue="-2+3 formula issue", priority="critical")
    url = "/api/maintenance/requests?tab=request&q=pump&priority=urgent"
    rows = csv_rows(client.get(url + "&format=csv", headers=headers))
    assert rows[0] == ["Request Number", "Details", "Priority", "Request Date", "Status", "Images"]
    table = json_pages(client, url, headers)
    assert [r[0] for r in rows[1:]] == [f"#{r['requestNumber']}" for r in table]
    assert len(rows) - 1 == 11
    # Repeated filters (priority=urgent&priority=critical) reach the export too.
    rows = csv_rows(
        client.get(url.replace("q=pump", "q=") + "&priority=critical&format=csv", headers=headers)
    )
    assert len(rows) - 1 == 12
    assert "'-2+3 formula issue" in [r[1] for r in rows]

    login(make_account(role=RoleId.OPERATOR))
    rows = csv_rows(client.get("/maintenance?tab=pending&q=pump&format=csv"))
    assert rows[0] == [
        "Request Number",
        "Details",
        "Priority",
        "Due Date",
        "Assigned to",
        "Contact Detail",
        "Status",
        "Images",
    ]


# Telemetry --------------------------------------------------------------------------------------


def _alert(machine, metric="ph", value=9.5, closed=False, minutes=0):
    now = utcnow()
    alert = Alert(
        machine_id=machine.id,
        metric=metric,
        value=value,
        low=6.5,
        high=8.0,
        opened_at=now - timedelta(minutes=minutes + 10),
        closed_at=now - timedelta(minutes=minutes) if closed else None,
    )
    db.session.add(alert)
    db.session.commit()
    return alert


def test_alerts_export_by_state_and_machine(client, api_headers, login):
    headers = api_headers(make_account(role=RoleId.OPERATOR))
    machine, other = make_machine("Niño unit"), make_machine("Other")
    for i in range(3):
        _alert(machine, minutes=i)
    _alert(machine, closed=True)
    _alert(other)
    rows = csv_rows(client.get(f"/api/alerts?state=open&machine={machine.id}&format=csv", headers=headers))
    assert rows[0] == [
        "Machine",
        "Metric",
        "Value",
        "Unit",
        "Healthy range",
        "Opened",
        "Closed",
        "Acknowledged",
    ]
    assert len(rows) - 1 == 3
    assert rows[1][:5] == ["Niño unit", "pH", "9.5", "", "6.5–8"]
    assert rows[1][6:] == ["open", "no"]
    assert len(csv_rows(client.get("/api/alerts?state=all&format=csv", headers=headers))) - 1 == 5
    login(make_account(role=RoleId.OPERATOR))
    assert len(csv_rows(client.get("/sibol-machines/alerts?state=closed&format=csv"))) - 1 == 1


def test_readings_series_export(client, api_headers):
    headers = api_headers(make_account(role=RoleId.OPERATOR))
    machine, key = keyed_machine()
    readings = [{"ts": iso(30 - i), **healthy(ph=7.0 + i / 10)} for i in range(3)]
    assert client.post("/api/telemetry", json={"readings": readings}, headers=device(key)).status_code == 202
    rows = csv_rows(
        client.get(f"/api/machines/{machine.id}/telemetry?metric=ph&bucket=raw&format=csv", headers=headers)
    )
    assert rows[0] == ["Time", "Metric", "Min", "Max", "Average", "Readings", "Unit"]
    assert [r[2] for r in rows[1:]] == ["7", "7.1", "7.2"]


def test_analytics_tables_export_as_one_file(client, login):
    machine, key = keyed_machine()
    hour = hour_start(2)
    readings = [healthy(ts=(hour + timedelta(minutes=m)).isoformat(), ph=6.0 + m / 20) for m in (0, 20, 40)]
    assert client.post("/api/telemetry", json={"readings": readings}, headers=device(key)).status_code == 202
    login(make_account(role=RoleId.STAFF))
    html = client.get(f"/sibol-machines?tab=analytics&machine={machine.id}&range=7d").get_data(as_text=True)
    href = export_href(html, "analytics-export")
    assert href == f"/sibol-machines?tab=analytics&machine={machine.id}&range=7d&format=csv"
    rows = csv_rows(client.get(href))
    assert rows[0] == ["Metric", "Unit", "Period (Asia/Manila)", "Min", "Average", "Max", "Readings"]
    ph = [r for r in rows[1:] if r[0] == "pH"]
    assert ph == [["pH", "", to_local(hour).strftime("%Y-%m-%d"), "6", "7", "8", "3"]]  # the local day
    assert client.get("/sibol-machines?tab=process-panels&format=csv").status_code == 404


# Bad input and refusals -------------------------------------------------------------------------

LISTS = [
    "/api/machines",
    "/api/admin/accounts",
    "/api/admin/pending-accounts",
    "/api/household/schedules",
    "/api/household/leaderboard",
    "/api/household/rewards",
    "/api/household/claims",
    "/api/maintenance/requests",
    "/api/alerts",
]


@pytest.mark.parametrize("url", LISTS)
def test_unknown_format_is_a_400_naming_format(client, api_headers, url):
    res = client.get(f"{url}?format=xlsx", headers=api_headers(make_admin()))
    assert res.status_code == 400
    assert res.json["field"] == "format"


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/household/schedules?status=Lost", "status"),
        ("/api/admin/accounts?role=x", "role"),
        ("/api/maintenance/requests?priority=soon", "priority"),
        ("/api/alerts?state=maybe", "state"),
        ("/api/machines?q=" + "x" * 101, "q"),
    ],
)
def test_bad_filters_answer_json_before_any_download(client, api_headers, url, field):
    res = client.get(url + "&format=csv", headers=api_headers(make_admin()))
    assert res.status_code == 400
    assert res.mimetype == "application/json"
    assert res.json["field"] == field


def test_page_with_unknown_format_is_a_400_page(client, login):
    login(make_account(role=RoleId.OPERATOR))
    res = client.get("/sibol-machines?tab=machines&format=pdf")
    assert res.status_code == 400
    assert "format must be csv" in res.get_data(as_text=True)


@pytest.mark.parametrize("url", LISTS)
def test_anonymous_export_is_refused_like_the_list(client, url):
    assert client.get(f"{url}?format=csv").status_code == 401


@pytest.mark.parametrize(
    ("role", "modules", "url"),
    [
        (RoleId.OPERATOR, None, "/api/admin/accounts"),
        (RoleId.STAFF, None, "/api/admin/pending-accounts"),
        (RoleId.HOUSEHOLD, None, "/api/household/leaderboard"),  # the module, not the role's action
        (RoleId.HOUSEHOLD, None, "/api/household/claims"),
        (RoleId.HOUSEHOLD, None, "/api/machines"),
        (RoleId.HOUSEHOLD, None, "/api/maintenance/requests"),
        (RoleId.HOUSEHOLD, None, "/api/alerts"),
        (RoleId.STAFF, [1], "/api/household/schedules"),  # staff whose admin took Household away
        (RoleId.STAFF, [1], "/api/machines"),
    ],
)
def test_export_refused_to_those_the_table_refuses(client, api_headers, role, modules, url):
    account = make_account(role=role, modules=modules)
    headers = api_headers(account)
    listing = client.get(url, headers=headers)
    export = client.get(f"{url}?format=csv", headers=headers)
    assert listing.status_code in (403, 404)
    assert export.status_code == listing.status_code
    assert export.mimetype == "application/json"


def test_page_export_refused_without_the_module(client, login):
    login(make_account(role=RoleId.STAFF, modules=[1]))
    for url in ("/admin?format=csv", "/household?tab=leaderboard&format=csv", "/maintenance?format=csv"):
        res = client.get(url)
        assert res.status_code == 403, url
        assert res.mimetype == "text/html"


def test_household_account_gets_its_own_page_not_the_roster(client, login):
    make_member("Pamilya Santos")
    login(make_account(role=RoleId.HOUSEHOLD))
    res = client.get("/household?tab=leaderboard&format=csv")
    assert res.mimetype == "text/html"
    assert "Pamilya Santos" not in res.get_data(as_text=True)


# The Export links on pages ----------------------------------------------------------------------


def export_href(html: str, element_id: str) -> str | None:
    import re

    found = re.search(rf'<a class="btn" href="([^"]+)" id="{element_id}" data-export', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_export_links_carry_search_and_filters_and_download(client, login):
    for i in range(3):
        make_reward(f"Bigas {i}")
    login(make_admin())
    html = client.get("/household?tab=rewards&q=bigas&status=Available&page=2").get_data(as_text=True)
    href = export_href(html, "rewards-export")
    assert href == "/household?tab=rewards&q=bigas&status=Available&format=csv"
    rows = csv_rows(client.get(href))
    assert [r[1] for r in rows[1:]] == ["Bigas 0", "Bigas 1", "Bigas 2"]

    html = client.get("/maintenance?tab=request&priority=urgent&priority=mild&q=x").get_data(as_text=True)
    assert (
        export_href(html, "mnt-export")
        == "/maintenance?tab=request&priority=urgent&priority=mild&q=x&format=csv"
    )
    html = client.get("/admin?q=ana&role=3").get_data(as_text=True)
    assert export_href(html, "accounts-export") == "/admin?q=ana&role=3&format=csv"
    html = client.get("/admin?tab=approval").get_data(as_text=True)
    assert export_href(html, "pending-export") == "/admin?tab=approval&format=csv"
    html = client.get("/sibol-machines?tab=machines&q=bio").get_data(as_text=True)
    assert export_href(html, "machines-export") == "/sibol-machines?tab=machines&q=bio&format=csv"
    html = client.get("/sibol-machines/alerts?state=all").get_data(as_text=True)
    assert export_href(html, "alerts-export") == "/sibol-machines/alerts?state=all&format=csv"
    for tab in ("schedule", "leaderboard", "claimed"):
        html = client.get(f"/household?tab={tab}").get_data(as_text=True)
        assert export_href(html, f"{tab}-export") == f"/household?tab={tab}&format=csv"


def test_no_export_link_where_there_is_no_table_or_no_access(client, login):
    login(make_account(role=RoleId.STAFF))
    assert "data-export" not in client.get("/household?tab=points").get_data(as_text=True)
    assert "data-export" not in client.get("/sibol-machines?tab=process-panels").get_data(as_text=True)
    assert 'id="machines-export"' in client.get("/sibol-machines?tab=waste-container").get_data(as_text=True)
    res = client.get("/admin")
    assert res.status_code == 403 and "data-export" not in res.get_data(as_text=True)

    client.get("/logout")
    login(make_account(role=RoleId.HOUSEHOLD))
    assert "data-export" not in client.get("/household").get_data(as_text=True)


def test_dates_in_export_are_the_tables_calendar_days(client, api_headers):
    headers = api_headers(make_account(role=RoleId.STAFF))
    make_schedule(person="Ate Rosa", when=date(2026, 3, 1))
    rows = csv_rows(client.get("/api/household/schedules?q=rosa&format=csv", headers=headers))
    assert rows[1][4] == "2026-03-01"
    assert datetime.strptime(rows[1][4], "%Y-%m-%d")
