"""The device page's command history is a live region: its fragment answers 200 with an ETag,
304 while nothing changed, and the new status once the device takes the command and answers it
(or it expires); the page's one poll carries it beside the readings. It refuses what the device
page refuses: another barangay's machine (404), an account without the Machines module (403)."""

from __future__ import annotations

import re

import pytest

from sibol.models import ModuleId, RoleId
from tests.factories import make_account
from tests.factories_admin import session_client
from tests.factories_commands import foreign_machine, make_overdue
from tests.factories_telemetry import device, keyed_machine
from tests.support.live import etag_of, text

pytestmark = pytest.mark.usefixtures("fresh_identity")


def fragment_url(machine_id: int) -> str:
    return f"/sibol-machines/machines/{machine_id}/live/commands"


def status_of(html: str, command_id: int) -> str:
    found = re.search(rf'<tr id="command-{command_id}" data-status="(\w+)">', html)
    assert found, f"command #{command_id} is not in the history"
    return found.group(1)


def send_stir(client, headers, machine_id: int, minutes: int = 5) -> int:
    res = client.post(
        f"/api/machines/{machine_id}/commands", json={"command": "stir", "value": minutes}, headers=headers
    )
    assert res.status_code == 201, res.json
    return res.json["id"]


def test_the_history_follows_a_command_from_queued_to_executed(app, client, api_headers):
    machine, key = keyed_machine("Digester Bantay")
    operator = make_account(role=RoleId.OPERATOR, first_name="Lito", last_name="Reyes")
    browser = session_client(app, operator)
    url = fragment_url(machine.id)

    # The device page marks the history with the fragment's URL and its current ETag.
    page = text(browser.get(f"/sibol-machines/machines/{machine.id}/device"))
    marked = re.search(
        rf'id="command-history"[^>]* data-live="{re.escape(url)}" data-live-etag="(\w+)"', page
    )
    assert marked, "the history is not a live region"
    first = browser.get(url)
    assert first.status_code == 200 and first.mimetype == "text/html"
    etag = etag_of(first)
    assert re.fullmatch(r"[0-9a-f]{16}", etag) and marked.group(1) == etag
    assert "No commands sent to this machine yet." in text(first)
    quiet = browser.get(url, headers={"If-None-Match": f'"{etag}"'})
    assert quiet.status_code == 304 and quiet.get_data() == b""

    cid = send_stir(client, api_headers(operator), machine.id)
    queued = browser.get(url, headers={"If-None-Match": f'"{etag}"'})
    assert queued.status_code == 200 and status_of(text(queued), cid) == "queued"
    assert "Stir 5 minutes" in text(queued) and "Lito Reyes" in text(queued)
    # The Cancel form drawn by the fragment returns to the device page, not to the fragment.
    device_page = f"/sibol-machines/machines/{machine.id}/device"
    assert f'name="next" value="{device_page}"' in text(queued) and 'id="cancel-command-' in text(queued)
    etag = etag_of(queued)
    assert browser.get(url, headers={"If-None-Match": f'"{etag}"'}).status_code == 304

    assert client.get("/api/device/commands", headers=device(key)).json["commands"][0]["id"] == cid
    delivered = browser.get(url, headers={"If-None-Match": f'"{etag}"'})
    assert delivered.status_code == 200 and status_of(text(delivered), cid) == "delivered"
    assert 'id="cancel-command-' not in text(delivered)  # only a queued command can be cancelled
    etag = etag_of(delivered)

    answer = client.post(
        f"/api/device/commands/{cid}/result",
        json={"status": "executed", "detail": "Stirring for 5 minutes"},
        headers=device(key),
    )
    assert answer.status_code == 200
    executed = browser.get(url, headers={"If-None-Match": f'"{etag}"'})
    assert executed.status_code == 200 and status_of(text(executed), cid) == "executed"
    assert "Stirring for 5 minutes" in text(executed)
    events = re.findall(r'command-events__status">(\w+)<', text(executed))
    assert events == ["executed", "delivered", "queued"]
    assert browser.get(url, headers={"If-None-Match": executed.headers["ETag"]}).status_code == 304


def test_one_poll_carries_the_history_beside_the_readings(app, client, api_headers):
    machine, key = keyed_machine()
    staff = make_account(role=RoleId.STAFF)
    browser = session_client(app, staff)
    readings, history = f"/sibol-machines/machines/{machine.id}/live/readings", fragment_url(machine.id)
    poll = f"/api/live?r={readings}&r={history}"
    first = browser.get(poll)
    assert [r["status"] for r in first.json["regions"]] == [200, 200]
    known = ", ".join(f'"{r["etag"]}"' for r in first.json["regions"])
    assert browser.get(poll, headers={"If-None-Match": known}).status_code == 304

    cid = send_stir(client, api_headers(staff), machine.id, minutes=12)
    changed = browser.get(poll, headers={"If-None-Match": known}).json["regions"]
    assert "html" not in changed[0]  # the readings did not change: not drawn again
    assert status_of(changed[1]["html"], cid) == "queued" and "Stir 12 minutes" in changed[1]["html"]
    assert f'data-live="{history}"' in changed[1]["html"]  # the new element is still a region


def test_an_overdue_command_shows_as_expired_with_the_next_poll(app, client, api_headers):
    machine, _key = keyed_machine()
    operator = make_account(role=RoleId.OPERATOR)
    browser = session_client(app, operator)
    cid = send_stir(client, api_headers(operator), machine.id)
    url = fragment_url(machine.id)
    queued = browser.get(url)
    assert status_of(text(queued), cid) == "queued"
    make_overdue(cid)  # no minute tick runs here: the poll itself expires it
    expired = browser.get(url, headers={"If-None-Match": queued.headers["ETag"]})
    assert expired.status_code == 200 and status_of(text(expired), cid) == "expired"
    assert "Not delivered to the device within 10 minutes." in text(expired)


def test_another_barangays_machine_is_404(app):
    operator = make_account(role=RoleId.OPERATOR)
    far, _key = foreign_machine("Far Digester")
    browser = session_client(app, operator)
    url = fragment_url(far.id)
    assert browser.get(url).status_code == 404
    res = browser.get(f"/api/live?r={url}")
    assert res.status_code == 200 and res.json["regions"] == [{"url": url, "status": 404, "etag": None}]
    assert "Far Digester" not in text(res)
    assert browser.get(fragment_url(999999)).status_code == 404
    assert browser.get("/sibol-machines/machines/abc/live/commands").status_code == 404


def test_an_account_without_the_machines_module_is_refused(app, client):
    machine, _key = keyed_machine()
    no_machines = make_account(role=RoleId.OPERATOR, modules=[int(ModuleId.DASHBOARD)])
    browser = session_client(app, no_machines)
    url = fragment_url(machine.id)
    assert browser.get(url).status_code == 403
    res = browser.get(f"/api/live?r={url}")
    assert res.json["regions"] == [{"url": url, "status": 403, "etag": None}]
    assert client.get(url).status_code == 302  # signed out: sent to sign in


def test_a_household_reader_sees_statuses_but_no_cancel(app, client, api_headers):
    machine, _key = keyed_machine()
    cid = send_stir(client, api_headers(make_account(role=RoleId.OPERATOR)), machine.id)
    reader = session_client(app, make_account(role=RoleId.HOUSEHOLD, modules=[1, 2, 4]))
    res = reader.get(fragment_url(machine.id))
    assert res.status_code == 200 and status_of(text(res), cid) == "queued"
    assert 'id="cancel-command-' not in text(res)


def test_the_process_panels_fragment_keeps_its_forms_returning_to_the_tab(app):
    machine, _key = keyed_machine()
    browser = session_client(app, make_account(role=RoleId.OPERATOR))
    tab = f"/sibol-machines?tab=process-panels&machine={machine.id}"
    panel = f"/sibol-machines/machines/{machine.id}/live/process-panel"
    for html in (
        text(browser.get(panel)),
        browser.get(f"/api/live?r={panel}").json["regions"][0]["html"],
    ):
        nexts = set(re.findall(r'name="next" value="([^"]+)"', html.replace("&amp;", "&")))
        assert nexts == {tab}
