"""The installable console: manifest, service worker, and which pages it may keep offline."""

from __future__ import annotations

import json

from sibol.models import RoleId
from tests.factories import DEFAULT_PASSWORD, make_account
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
    # The only script an offline page adds, no imports: the registration and the shared-phone check.
    assert len(script.get_data()) < 400


def test_pages_that_are_not_kept_offline_do_not_register_the_worker(client, login):
    login(make_account(role=RoleId.STAFF, modules=[1]))  # the dashboard only
    assert WORKER_ENTRY not in client.get("/dashboard").get_data(as_text=True)
    refused = client.get("/household/collection-day")
    assert refused.status_code == 403 and WORKER_ENTRY not in refused.get_data(as_text=True)


# Shared phones ---------------------------------------------------------------------------------

ACCOUNT_COOKIE = "sibol_account"


def test_the_account_cookie_follows_the_session_and_scripts_may_read_it(client, login):
    ana = make_account(username="ana")
    res = login(ana)
    cookie = client.get_cookie(ACCOUNT_COOKIE)
    assert cookie is not None and cookie.value == str(ana.id)
    assert "HttpOnly" not in next(
        h for h in res.headers.getlist("Set-Cookie") if h.startswith(ACCOUNT_COOKIE)
    )
    client.post("/logout")
    assert client.get_cookie(ACCOUNT_COOKIE) is None
    # A session that ended elsewhere: the next page (the sign-in page it is sent to) deletes it.
    login(ana)
    client.set_cookie("session", "")  # the session cookie is gone (expired, cleared)
    client.get("/household/collection-day")
    assert client.get_cookie(ACCOUNT_COOKIE) is None
    # A call with a bearer token is no browser session: it gets no cookie.
    token = client.post("/api/auth/login", json={"username": "ana", "password": DEFAULT_PASSWORD}).json[
        "token"
    ]
    app_client = client.application.test_client()
    res = app_client.get("/api/household/leaderboard", headers={"Authorization": f"Bearer {token}"})
    assert res.status_code == 200 and app_client.get_cookie(ACCOUNT_COOKIE) is None


def test_offline_pages_name_their_account_for_the_entries_they_keep(client, staff, staff_client):
    html = client.get("/household/collection-day").get_data(as_text=True)
    assert f'<meta name="sibol-account" content="{staff.id}" data-name="{staff.full_name}">' in html


def test_an_entry_stating_another_author_is_refused_and_credits_nothing(client, staff, staff_client):
    from tests.factories_household import make_member

    rosa = make_member("Rosa", points=0)
    url = f"/api/household/members/{rosa.id}/waste"
    other = make_account(username="ana")
    refused = client.post(url, json={"wasteKg": "1"}, headers={"X-Sibol-Entry-Author": str(other.id)})
    assert refused.status_code == 403, refused.json
    assert refused.json["code"] == "another_account" and refused.json["field"] == "author"
    assert "another account" in refused.json["message"]
    assert client.get("/api/household/leaderboard?q=Rosa").json["data"][0]["points"] == 0
    own = client.post(url, json={"wasteKg": "1"}, headers={"X-Sibol-Entry-Author": str(staff.id)})
    assert own.status_code == 201 and own.json["points"] == 30
    plain = client.post(url, json={"wasteKg": "1"})  # without the header: as before
    assert plain.status_code == 201


def test_a_remark_stating_another_author_is_refused(client, staff, staff_client):
    request = make_request()
    other = make_account(username="ana")
    res = client.post(
        f"/api/maintenance/requests/{request.id}/remarks",
        json={"remarks": "Needs oil"},
        headers={"X-Sibol-Entry-Author": str(other.id)},
    )
    assert res.status_code == 403 and res.json["code"] == "another_account"
