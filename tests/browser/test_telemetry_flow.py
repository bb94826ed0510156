"""Telemetry in headless Chromium: issue a key, the simulator posts, Process Panels shows the
value, an out-of-range reading raises the bell's count, the alert is opened and acknowledged."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from sqlalchemy import select

from sibol.devices.keys import issue_key
from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.telemetry import Alert
from sibol.telemetry.simulate import DigesterState, reading_at
from sibol.telemetry.simulator import post_reading
from tests.factories import make_account, make_machine
from tests.support.axe import axe_violations, describe
from tests.support.browser import settled_wait, sign_in, wait


def unread(browser) -> str:
    return browser.find_element(By.CSS_SELECTOR, "#bell [data-unread]").text


def test_key_readings_panel_alert_bell_acknowledge(browser, live_server, in_app):
    with in_app():
        staff = make_account(role=RoleId.STAFF, first_name="Mara", last_name="Santos")
        machine = make_machine("Digester Selenium")
        username, machine_id = staff.username, machine.id
    sign_in(browser, live_server.url, username)
    assert unread(browser) == "0"

    # Issue a key from the Machines table, once the island has loaded it (it shows "never").
    browser.get(f"{live_server.url}/sibol-machines?tab=machines")
    wait(browser).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, '#machines-table[aria-busy="false"]'))
    )
    link = wait(browser).until(
        EC.element_to_be_clickable((By.CSS_SELECTOR, f'a[aria-label="Device key of machine #{machine_id}"]'))
    )
    assert "never" in link.find_element(By.XPATH, "ancestor::tr").text
    link.click()
    wait(browser).until(EC.element_to_be_clickable((By.ID, "issue-key"))).click()
    key = wait(browser).until(EC.presence_of_element_located((By.ID, "device-key"))).text
    assert key.startswith("sdk_")

    # The simulator posts a healthy reading with that key, over HTTP.
    http = requests.Session()
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    reading = reading_at(DigesterState(rng=random.Random(3)), now)
    reading["ph"] = 7.25
    assert post_reading(http, live_server.url, key, reading, now - timedelta(minutes=1)).status_code == 202

    browser.get(f"{live_server.url}/sibol-machines?tab=process-panels&machine={machine_id}")
    ph = wait(browser).until(EC.presence_of_element_located((By.ID, "sensor-ph")))
    assert ph.find_element(By.CSS_SELECTOR, "[data-value]").text == "7.25"
    assert "Healthy" in ph.text

    # An out-of-range reading: the panel turns red and the bell counts it.
    sour = {**reading, "ph": 5.4}
    assert post_reading(http, live_server.url, key, sour, now).json() == {"accepted": 1, "duplicates": 0}
    browser.refresh()
    ph = wait(browser).until(EC.presence_of_element_located((By.ID, "sensor-ph")))
    assert "Out of range" in ph.text
    assert unread(browser) == "1"

    # Open the alert from the notification centre and acknowledge it.
    browser.find_element(By.ID, "bell").click()
    note = wait(browser).until(
        EC.element_to_be_clickable((By.XPATH, "//button[contains(., 'Digester Selenium: pH alert opened')]"))
    )
    note.click()
    wait(browser).until(EC.element_to_be_clickable((By.ID, "acknowledge"))).click()
    # Read the marker and the bell afresh until they show it: the page may still be swapping in
    # the answer when first found (a stale element otherwise).
    stale_ok = settled_wait(browser)
    stale_ok.until(lambda d: d.find_element(By.ID, "acknowledged").text.startswith("by Mara Santos"))
    stale_ok.until(lambda d: unread(d) == "0")


def test_telemetry_screens_have_no_serious_accessibility_violations(browser, live_server, in_app):
    with in_app():
        staff = make_account(role=RoleId.STAFF)
        machine = make_machine("Digester Axe")
        key = issue_key(machine.id, actor_id=None)
        username, machine_id = staff.username, machine.id
    http = requests.Session()
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    state = DigesterState(rng=random.Random(5))
    for minutes in (90, 60, 30, 0):
        reading = reading_at(state, now - timedelta(minutes=minutes))
        post_reading(http, live_server.url, key, {**reading, "ph": 5.5}, now - timedelta(minutes=minutes))
    with in_app():
        alert_id = db.session.scalar(select(Alert.id).where(Alert.machine_id == machine_id))
    sign_in(browser, live_server.url, username)
    browser.set_script_timeout(30)
    problems = {}
    for route in (
        f"/sibol-machines?tab=process-panels&machine={machine_id}",
        f"/sibol-machines?tab=analytics&machine={machine_id}&range=7d",
        f"/sibol-machines/machines/{machine_id}/device",
        "/sibol-machines/alerts",
        f"/sibol-machines/alerts?machine={machine_id}",
        f"/sibol-machines/alerts/{alert_id}",
        "/notifications",
    ):
        browser.get(live_server.url + route)
        wait(browser).until(lambda d: d.execute_script("return document.readyState") == "complete")
        found = axe_violations(browser)
        if found:
            problems[route] = describe(found)
    assert problems == {}
