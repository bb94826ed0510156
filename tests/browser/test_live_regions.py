"""Live regions in headless Chromium: an operator watches a machine's device page; a reading the
controller posts shows within 10 s without a reload, and the bell counts the alert it opens.
Process Panels follows the same way."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from sibol.models import RoleId
from tests.factories import make_account
from tests.factories_telemetry import device, healthy, iso, keyed_machine
from tests.support.browser import settled_wait, sign_in

WITHIN = 10  # seconds: what the console promises for a change to show


def post(base: str, key: str, **values) -> None:
    res = requests.post(f"{base}/api/telemetry", json=healthy(**values), headers=device(key), timeout=10)
    assert res.status_code == 202, res.text


def shown(driver, css: str) -> str:
    return driver.find_element(By.CSS_SELECTOR, css).text


def mark_page(driver) -> None:
    """A marker that a reload would wipe: the page must keep it while its regions change."""
    driver.execute_script("window.sibolSamePage = true;")


def same_page(driver) -> bool:
    return driver.execute_script("return window.sibolSamePage === true;")


def test_device_page_and_bell_follow_a_reading_without_a_reload(browser, live_server, in_app):
    with in_app():
        operator = make_account(role=RoleId.OPERATOR)
        machine, key = keyed_machine("Digester Live")
        username, machine_id = operator.username, machine.id
    post(live_server.url, key, ts=iso(3), ph=7.1)
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/sibol-machines/machines/{machine_id}/device")
    assert shown(browser, "#reading-ph [data-value]") == "7.1"
    assert shown(browser, "#bell [data-unread]") == "0"
    mark_page(browser)

    post(live_server.url, key, ts=iso(1), ph=7.4)
    wait = settled_wait(browser, WITHIN)
    wait.until(lambda d: shown(d, "#reading-ph [data-value]") == "7.4")
    assert "Healthy" in shown(browser, "#reading-ph") and same_page(browser)

    # Out of range: the row turns red and the bell counts the alert, still on the same page.
    post(live_server.url, key, ts=iso(0), ph=5.3)
    wait.until(lambda d: shown(d, "#reading-ph [data-value]") == "5.3")
    assert "Out of range" in shown(browser, "#reading-ph")
    wait.until(lambda d: shown(d, "#bell [data-unread]") == "1")
    bell = browser.find_element(By.ID, "bell").get_attribute("aria-label")
    assert "1 unread" in bell and same_page(browser)


def test_process_panels_follow_a_reading_without_a_reload(browser, live_server, in_app):
    with in_app():
        staff = make_account(role=RoleId.STAFF)
        machine, key = keyed_machine("Digester Panels")
        username, machine_id = staff.username, machine.id
    post(live_server.url, key, ts=iso(2), methane_pct=58.0)
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/sibol-machines?tab=process-panels&machine={machine_id}")
    assert shown(browser, "#sensor-methane_pct [data-value]") == "58"
    # An open table of figures stays open when the panel is redrawn.
    browser.find_element(By.CSS_SELECTOR, "#sensor-methane_pct summary").click()
    mark_page(browser)

    post(live_server.url, key, ts=iso(0), methane_pct=61.5)
    settled_wait(browser, WITHIN).until(lambda d: shown(d, "#sensor-methane_pct [data-value]") == "61.5")
    details = browser.find_element(By.CSS_SELECTOR, "#sensor-methane_pct details")
    assert details.get_attribute("open") is not None and same_page(browser)
