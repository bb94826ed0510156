"""Every page the console keeps offline registers the service worker itself: after one visit
online to the maintenance page, or to a machine's last readings (collection day never opened),
it opens with no signal.

The link is cut as in the other offline tests (tests/support/offline.py): DevTools offline
(Network.emulateNetworkConditions) and the server stopped."""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from sibol.extensions import db
from sibol.models import RoleId
from tests.factories import make_account
from tests.factories_telemetry import device, healthy, iso, keyed_machine
from tests.support.browser import settled_wait, sign_in
from tests.support.offline import Link, cached_pages, offline


@pytest.fixture
def server(live_app):
    link = Link(live_app)
    yield link
    link.down()
    with live_app.app_context():
        db.session.remove()


def test_the_maintenance_page_opens_offline_after_one_visit_online(server, browser, in_app):
    with in_app():
        username = make_account().username
    sign_in(browser, server.url, username)
    wait = settled_wait(browser, 20)
    browser.get(server.url + "/maintenance")  # the only visit online
    wait.until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    wait.until(lambda d: cached_pages(d) >= 1)

    offline(browser, True)
    server.down()
    browser.refresh()
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Maintenance")
    assert "/maintenance" in browser.current_url


def test_a_machines_last_readings_open_offline_after_one_visit_online(server, browser, in_app):
    with in_app():
        username = make_account(role=RoleId.OPERATOR).username
        machine, key = keyed_machine("Digester Offline")
        machine_id = machine.id
    res = requests.post(
        f"{server.url}/api/telemetry", json=healthy(ts=iso(2), ph=7.3), headers=device(key), timeout=10
    )
    assert res.status_code == 202, res.text
    sign_in(browser, server.url, username)
    wait = settled_wait(browser, 20)
    page = f"{server.url}/sibol-machines/machines/{machine_id}/device"
    browser.get(page)  # the only visit online
    wait.until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    wait.until(lambda d: cached_pages(d) >= 1)

    offline(browser, True)
    server.down()
    browser.refresh()
    wait.until(lambda d: "Digester Offline" in d.find_element(By.TAG_NAME, "h1").text)
    assert browser.find_element(By.CSS_SELECTOR, "#reading-ph [data-value]").text == "7.3"
