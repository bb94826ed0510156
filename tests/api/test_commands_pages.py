"""Commands on the pages, without JavaScript: the device page's form and history, the Process
Panels' compact form, the confirmation page of generator stop and reboot, cancel, refusals."""

from __future__ import annotations

import re

import pytest

from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.commands import Command
from tests.factories import make_account
from tests.factories_admin import fresh_identity_per_request, session_client
from tests.factories_commands import command_count, foreign_machine
from tests.factories_telemetry import device, keyed_machine


@pytest.fixture(autouse=True)
def _fresh_identity(app):
    fresh_identity_per_request(app)


def text(res) -> str:
    return res.get_data(as_text=True)


def history_of(page: str) -> str:
    start = page.index('id="command-history"')
    return page[start : page.index("</div>", start)]


def test_an_operator_sends_stir_from_the_device_page_and_sees_it_in_the_history(app, client):
    machine, key = keyed_machine("Digester Tres")
    operator = make_account(role=RoleId.OPERATOR, first_name="Ramon", last_name="Cruz")
    browser = session_client(app, operator)
    url = f"/sibol-machines/machines/{machine.id}/device"
    page = text(browser.get(url))
    assert "Send a command" in page and 'id="command-stir"' in page
    assert "No commands sent to this machine yet." in page

    sent = browser.post(
        f"/sibol-machines/machines/{machine.id}/commands", data={"command": "stir", "value": "5", "next": url}
    )
    assert sent.status_code == 302 and sent.headers["Location"].endswith(url)
    page = text(browser.get(url))
    assert "Stir 5 minutes sent to Digester Tres: queued as #" in page
    history = history_of(page)
    assert "Stir 5 minutes" in history and "Ramon Cruz" in history and 'data-status="queued"' in history

    cid = db.session.query(Command.id).scalar()
    client.get("/api/device/commands", headers=device(key))
    client.post(
        f"/api/device/commands/{cid}/result",
        json={"status": "failed", "detail": "Motor stalled"},
        headers=device(key),
    )
    history = history_of(text(browser.get(url)))
    assert 'data-status="failed"' in history and "Motor stalled" in history
    # Every change, newest first: failed, delivered, queued.
    events = re.findall(r'command-events__status">(\w+)<', history)
    assert events == ["failed", "delivered", "queued"]


def test_generator_stop_asks_first_without_javascript(app):
    machine, _key = keyed_machine("Digester Cuatro")
    staff = make_account(role=RoleId.STAFF)
    browser = session_client(app, staff)
    url = f"/sibol-machines/machines/{machine.id}/commands"
    device_page = text(browser.get(f"/sibol-machines/machines/{machine.id}/device"))
    assert 'id="command-generator-stop" data-confirm=' in device_page
    ask = browser.post(url, data={"command": "generator", "value": "stop"})
    assert ask.status_code == 200
    page = text(ask)
    assert "Generator stop on Digester Cuatro?" in page and 'id="confirm-yes"' in page
    assert 'name="command" value="generator"' in page and 'name="value" value="stop"' in page
    assert 'name="confirmed" value="1"' in page
    assert command_count() == 0
    done = browser.post(url, data={"command": "generator", "value": "stop", "confirmed": "1"})
    assert done.status_code == 302 and command_count() == 1
    reboot = browser.post(url, data={"command": "reboot"})
    assert reboot.status_code == 200 and "Reboot on Digester Cuatro?" in text(reboot)
    assert browser.post(url, data={"command": "reboot", "confirmed": "1"}).status_code == 302
    assert command_count() == 2
    # Starting the generator does not ask.
    assert browser.post(url, data={"command": "generator", "value": "start"}).status_code == 302


def test_a_bad_value_or_a_pending_kind_is_shown_and_nothing_is_stored(app):
    machine, _key = keyed_machine()
    browser = session_client(app, make_account(role=RoleId.STAFF))
    url = f"/sibol-machines/machines/{machine.id}/commands"
    res = browser.post(url, data={"command": "stir", "value": "90"}, follow_redirects=True)
    assert "Command not sent: value of stir must be between 1 and 60 minutes." in text(res)
    assert command_count() == 0
    browser.post(url, data={"command": "stir", "value": "3"})
    res = browser.post(url, data={"command": "stir", "value": "4"}, follow_redirects=True)
    assert "Command not sent: A stir command (#" in text(res) and command_count() == 1
    res = browser.post(url, data={"command": "launch"}, follow_redirects=True)
    assert "command must be one of" in text(res)


def test_cancel_from_the_history(app):
    machine, _key = keyed_machine()
    browser = session_client(app, make_account(role=RoleId.OPERATOR))
    browser.post(
        f"/sibol-machines/machines/{machine.id}/commands", data={"command": "feed_pump", "value": "on"}
    )
    cid = db.session.query(Command.id).scalar()
    page = text(browser.get(f"/sibol-machines/machines/{machine.id}/device"))
    assert f'id="cancel-command-{cid}"' in page
    # The form sends the page it was on as `next`, as the browser would.
    back = re.search(r'name="next" value="([^"]+)">\s*<button[^>]*id="cancel-command-', page).group(1)
    assert back == f"/sibol-machines/machines/{machine.id}/device"
    cancel = f"/sibol-machines/machines/{machine.id}/commands/{cid}/cancel"
    res = browser.post(cancel, data={"next": back}, follow_redirects=True)
    assert f"Command #{cid} cancelled." in text(res)
    history = history_of(text(res))
    assert 'data-status="cancelled"' in history and f'id="cancel-command-{cid}"' not in history
    again = browser.post(cancel, data={"next": back}, follow_redirects=True)
    assert "Command not cancelled: Only a queued command can be cancelled" in text(again)


def test_process_panels_carry_a_compact_form_that_returns_to_the_tab(app):
    machine, _key = keyed_machine("Digester Cinco")
    browser = session_client(app, make_account(role=RoleId.OPERATOR))
    tab = f"/sibol-machines?tab=process-panels&machine={machine.id}"
    page = text(browser.get(tab))
    assert 'id="process-commands"' in page and "command-forms--compact" in page
    assert f'name="next" value="{tab}"' in page.replace("&amp;", "&")
    sent = browser.post(
        f"/sibol-machines/machines/{machine.id}/commands",
        data={"command": "set_interval", "value": "30", "next": tab},
    )
    assert sent.status_code == 302 and sent.headers["Location"].endswith(tab)
    # Only a local path is followed; anything else leads to the account's home page.
    away = browser.post(
        f"/sibol-machines/machines/{machine.id}/commands",
        data={"command": "feed_pump", "value": "off", "next": "//evil.example/"},
    )
    assert away.status_code == 302 and away.headers["Location"] == browser.get("/").headers["Location"]
    assert "evil" not in away.headers["Location"]


def test_households_and_other_barangays_are_refused(app):
    machine, _key = keyed_machine()
    household = session_client(app, make_account(role=RoleId.HOUSEHOLD))
    assert household.get(f"/sibol-machines/machines/{machine.id}/device").status_code == 403
    res = household.post(
        f"/sibol-machines/machines/{machine.id}/commands", data={"command": "stir", "value": "5"}
    )
    assert res.status_code == 403 and command_count() == 0
    # A household account given the machines module sees the history but no form, and cannot send.
    reader = session_client(app, make_account(role=RoleId.HOUSEHOLD, modules=[1, 2, 4]))
    page = text(reader.get(f"/sibol-machines/machines/{machine.id}/device"))
    assert 'id="command-history"' in page and 'id="command-stir"' not in page
    assert (
        reader.post(f"/sibol-machines/machines/{machine.id}/commands", data={"command": "reboot"}).status_code
        == 403
    )

    far, _far_key = foreign_machine()
    staff = session_client(app, make_account(role=RoleId.STAFF))
    assert staff.get(f"/sibol-machines/machines/{far.id}/device").status_code == 404
    res = staff.post(f"/sibol-machines/machines/{far.id}/commands", data={"command": "stir", "value": "5"})
    assert res.status_code == 404 and command_count() == 0
