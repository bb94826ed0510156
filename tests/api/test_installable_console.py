"""The installable console: manifest, service worker, and which pages it may keep offline."""

from __future__ import annotations

import json

from sibol.models import RoleId
from tests.factories import make_account
from tests.factories_maintenance import make_request

MARK = "X-Sibol-Offline"


def test_the_manifest_and_the_worker_are_served_at_the_root(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest.mimetype == "application/manifest+json"
    body = json.loads(manifest.get_data(as_text=True))
    assert body["start_url"] == "/household/collection-day" and body["scope"] == "/"
    assert body["display"] == "standalone" and body["icons"]
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in worker.headers["Cache-Control"]
    assert b"/static/dist/assets/collection-day-" in worker.get_data()  # its precache


def test_signed_in_pages_link_the_manifest(client, staff_client):
    assert '<link rel="manifest" href="/manifest.webmanifest">' in client.get(
        "/household/collection-day"
    ).get_data(as_text=True)


def test_offline_pages_carry_the_account_and_barangay_mark(client, staff, staff_client):
    res = client.get("/household/collection-day")
    account, _sep, barangay = res.headers[MARK].partition(".")
    assert account == str(staff.id) and barangay == str(staff.barangay_id)
    assert MARK in client.get("/household?tab=leaderboard").headers
    assert MARK in client.get("/maintenance").headers


def test_a_maintenance_requests_detail_dialog_is_kept_for_its_remark_form(client, staff_client):
    req = make_request()
    res = client.get(f"/maintenance/requests/{req.id}/dialog")
    assert res.status_code == 200 and MARK in res.headers
    assert 'id="mnt-add-remark"' in res.get_data(as_text=True)
    assert MARK not in client.get("/maintenance/requests/999999/dialog").headers  # 404: not kept


def test_the_household_page_holds_an_empty_record_waste_dialog_for_use_without_signal(client, staff_client):
    html = client.get("/household?tab=leaderboard").get_data(as_text=True)
    blank = html.split('<template id="record-waste-offline">', 1)[1].split("</template>", 1)[0]
    assert 'action="/household/members/0/waste"' in blank and 'name="wasteKg"' in blank


def test_other_pages_and_refusals_carry_no_mark(client, login):
    login(make_account(role=RoleId.STAFF, modules=[1]))  # the dashboard only
    refused = client.get("/household/collection-day")
    assert refused.status_code == 403 and MARK not in refused.headers
    assert MARK not in client.get("/dashboard").headers


def test_the_sign_in_page_carries_no_mark(client):
    assert MARK not in client.get("/login").headers
    assert MARK not in client.get("/household/collection-day").headers  # a redirect to sign in


WORKER_ENTRY = "/static/dist/assets/offline-worker-"


def test_every_offline_page_registers_the_worker_with_one_tiny_script(client, staff_client):
    for page in ("/household/collection-day", "/household?tab=leaderboard", "/maintenance"):
        html = client.get(page).get_data(as_text=True)
        assert html.count(WORKER_ENTRY) == 1, page
    name = html.split(WORKER_ENTRY, 1)[1].split('"', 1)[0]
    script = client.get(WORKER_ENTRY + name)
    assert script.status_code == 200
    assert b'register("/sw.js"' in script.get_data()
    assert len(script.get_data()) < 200  # the only script an offline page adds: no imports


def test_pages_that_are_not_kept_offline_do_not_register_the_worker(client, login):
    login(make_account(role=RoleId.STAFF, modules=[1]))  # the dashboard only
    assert WORKER_ENTRY not in client.get("/dashboard").get_data(as_text=True)
    refused = client.get("/household/collection-day")
    assert refused.status_code == 403 and WORKER_ENTRY not in refused.get_data(as_text=True)
