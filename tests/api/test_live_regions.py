"""Live regions: the fragment routes and the page's one poll (GET /api/live) answer 200 with an
ETag, 304 while nothing changed, the new HTML once a reading arrives, and refuse what their pages
refuse (another barangay's machine, an account without the Machines module, no sign-in)."""

from __future__ import annotations

import re

import pytest

from sibol.extensions import db
from sibol.identity import tenancy
from sibol.models import Area, Barangay, ModuleId, RoleId
from tests.factories import make_account, make_machine
from tests.factories_admin import session_client
from tests.factories_telemetry import device, healthy, iso, keyed_machine
from tests.support.live import etag_of, text

pytestmark = pytest.mark.usefixtures("fresh_identity")


def region_attrs(page: str, url: str) -> str:
    """The ETag a page wrote for its live region at `url`."""
    found = re.search(rf'data-live="{re.escape(url)}" data-live-etag="([0-9a-f]+)"', page)
    assert found, f"no live region {url} in the page"
    return found.group(1)


def post(client, key: str, **values) -> None:
    res = client.post("/api/telemetry", json=healthy(**values), headers=device(key))
    assert res.status_code == 202, res.json


def test_readings_fragment_is_304_until_a_reading_arrives(app, client):
    operator = make_account(role=RoleId.OPERATOR)
    machine, key = keyed_machine("Digester Live")
    post(client, key, ts=iso(5), ph=7.1)
    browser = session_client(app, operator)
    url = f"/sibol-machines/machines/{machine.id}/live/readings"

    first = browser.get(url)
    assert first.status_code == 200 and first.mimetype == "text/html"
    etag = etag_of(first)
    assert re.fullmatch(r"[0-9a-f]{16}", etag)
    assert '<tr id="reading-ph">' in text(first) and "<span data-value>7.1</span>" in text(first)

    same = browser.get(url, headers={"If-None-Match": f'"{etag}"'})
    assert same.status_code == 304 and same.get_data() == b"" and etag_of(same) == etag
    assert "Content-Security-Policy" not in same.headers  # a bare 304: nothing but its ETag

    post(client, key, ts=iso(0), ph=5.4)
    changed = browser.get(url, headers={"If-None-Match": f'"{etag}"'})
    assert changed.status_code == 200 and etag_of(changed) != etag
    row = text(changed)[text(changed).index('id="reading-ph"') :]
    assert "<span data-value>5.4</span>" in row[: row.index("</tr>")] and "Out of range" in row


def test_the_page_carries_the_same_etag_as_its_fragment(app, client):
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine()
    post(client, key, ts=iso(1))
    browser = session_client(app, staff)
    for page_url, fragment in (
        (
            f"/sibol-machines/machines/{machine.id}/device",
            f"/sibol-machines/machines/{machine.id}/live/readings",
        ),
        (
            f"/sibol-machines?tab=process-panels&machine={machine.id}",
            f"/sibol-machines/machines/{machine.id}/live/process-panel",
        ),
        ("/dashboard", "/notifications/live/bell"),
    ):
        page = text(browser.get(page_url))
        etag = region_attrs(page, fragment)
        assert browser.get(fragment, headers={"If-None-Match": f'"{etag}"'}).status_code == 304, fragment
        # Without JavaScript the region's Refresh link reloads its page.
        if "machines/" in fragment:
            assert re.search(r'class="live-refresh" href="[^"]+" data-live-refresh>Refresh</a>', page)


def test_process_panel_fragment_follows_a_reading_and_an_alert(app, client):
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine()
    post(client, key, ts=iso(3))
    browser = session_client(app, staff)
    url = f"/sibol-machines/machines/{machine.id}/live/process-panel"
    etag = etag_of(browser.get(url))
    assert browser.get(url, headers={"If-None-Match": f'"{etag}"'}).status_code == 304
    post(client, key, ts=iso(0), ph=5.0)
    res = browser.get(url, headers={"If-None-Match": f'"{etag}"'})
    assert res.status_code == 200 and "Alerts (1 open)" in text(res)
    assert 'id="process-panels"' in text(res) and f'data-live="{url}"' in text(res)


def test_one_poll_answers_for_every_region_of_the_page(app, client):
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine()
    post(client, key, ts=iso(2))
    browser = session_client(app, staff)
    readings = f"/sibol-machines/machines/{machine.id}/live/readings"
    bell = "/notifications/live/bell"
    poll = f"/api/live?r={readings}&r={bell}"

    first = browser.get(poll)
    assert first.status_code == 200
    regions = {r["url"]: r for r in first.json["regions"]}
    assert regions[readings]["status"] == 200 and 'id="device-readings"' in regions[readings]["html"]
    assert regions[bell]["status"] == 200 and 'id="bell"' in regions[bell]["html"]
    known = ", ".join(f'"{r["etag"]}"' for r in first.json["regions"])

    quiet = browser.get(poll, headers={"If-None-Match": known})
    assert quiet.status_code == 304 and quiet.get_data() == b""

    # An out-of-range reading opens an alert: both the readings and the bell's count change.
    post(client, key, ts=iso(0), ph=5.2)
    changed = browser.get(poll, headers={"If-None-Match": known})
    assert changed.status_code == 200
    regions = {r["url"]: r for r in changed.json["regions"]}
    assert "<span data-value>5.2</span>" in regions[readings]["html"]
    assert '<span class="topbar__count" data-unread>1</span>' in regions[bell]["html"]

    # Only what changed is drawn again: the readings' old ETag with the bell's new one.
    mixed = f'"{first.json["regions"][0]["etag"]}", "{regions[bell]["etag"]}"'
    partly = browser.get(poll, headers={"If-None-Match": mixed}).json["regions"]
    assert "html" in partly[0] and "html" not in partly[1]


def other_barangay_machine():
    other = Barangay(name="Barangay Tres")
    db.session.add(other)
    db.session.commit()
    db.session.add(Area(name="Purok 1", barangay_id=other.id))
    db.session.commit()
    with tenancy.scoped(other.id):
        return make_machine("Tres Digester")


def test_another_barangays_machine_is_404_in_fragment_and_poll(app):
    operator = make_account(role=RoleId.OPERATOR)
    theirs = other_barangay_machine()
    browser = session_client(app, operator)
    for kind in ("readings", "process-panel"):
        url = f"/sibol-machines/machines/{theirs.id}/live/{kind}"
        assert browser.get(url).status_code == 404
        res = browser.get(f"/api/live?r={url}")
        assert res.status_code == 200 and res.json["regions"] == [{"url": url, "status": 404, "etag": None}]
        assert "Tres" not in text(res)


def test_an_account_without_the_machines_module_is_refused(app):
    machine, _key = keyed_machine()
    no_machines = make_account(role=RoleId.OPERATOR, modules=[int(ModuleId.DASHBOARD)])
    browser = session_client(app, no_machines)
    url = f"/sibol-machines/machines/{machine.id}/live/readings"
    assert browser.get(url).status_code == 403
    res = browser.get(f"/api/live?r={url}&r=/notifications/live/bell")
    assert [r["status"] for r in res.json["regions"]] == [403, 200]
    assert "html" not in res.json["regions"][0]


def test_anonymous_callers_are_sent_to_sign_in(app, client):
    machine, _key = keyed_machine()
    url = f"/sibol-machines/machines/{machine.id}/live/readings"
    page = client.get(url)
    assert page.status_code == 302 and "/login" in page.headers["Location"]
    assert client.get("/notifications/live/bell").status_code == 302
    res = client.get(f"/api/live?r={url}")
    assert res.status_code == 401 and res.json["message"]


@pytest.mark.parametrize(
    ("query", "status"),
    [("", 400), ("?r=" + "&r=".join(f"/x{i}" for i in range(9)), 400)],
)
def test_a_poll_names_its_bad_field(app, query, status):
    browser = session_client(app, make_account(role=RoleId.STAFF))
    res = browser.get("/api/live" + query)
    assert res.status_code == status and res.json["field"] == "r"


@pytest.mark.parametrize(
    "url",
    [
        "/sibol-machines",
        "https://evil.example/x",
        "//evil.example/x",
        "/nowhere",
        "/notifications/live/bell?x=1",
    ],
)
def test_a_poll_answers_only_for_live_fragments(app, url):
    """A page route, another host or a query string is no region: 404 for it, nothing rendered."""
    browser = session_client(app, make_account(role=RoleId.STAFF))
    res = browser.get("/api/live", query_string={"r": url})
    assert res.status_code == 200 and res.json["regions"] == [{"url": url, "status": 404, "etag": None}]


def test_the_bell_region_follows_the_unread_count(app, client):
    staff = make_account(role=RoleId.STAFF)
    machine, key = keyed_machine()
    browser = session_client(app, staff)
    first = browser.get("/notifications/live/bell")
    assert '<span class="topbar__count" data-unread>0</span>' in text(first)
    post(client, key, ts=iso(0), temperature_c=80.0)
    res = browser.get("/notifications/live/bell", headers={"If-None-Match": first.headers["ETag"]})
    assert res.status_code == 200 and '<span class="topbar__count" data-unread>1</span>' in text(res)
