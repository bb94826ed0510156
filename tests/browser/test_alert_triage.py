"""Acting on alerts in headless Chromium, on a 390 px phone and a 1366 px laptop: a row's
Acknowledge and "Acknowledge selected" (with and without JavaScript), the next open alert, the
Machines badge, the out-of-range tile, and the notification centre's groups and filters."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from sibol.devices.keys import issue_key
from sibol.extensions import db
from sibol.models import RoleId, utcnow
from sibol.models.telemetry import Alert
from sibol.telemetry.simulate import DigesterState, reading_at
from sibol.telemetry.simulator import post_reading
from tests.factories import make_account, make_machine
from tests.support.browser import set_viewport, settled_wait, sign_in, wait
from tests.support.layout import measure

WIDTHS = {"phone": (390, 844), "laptop": (1366, 768)}

# The label a phone card shows before each cell of a row (CSS td::before { content: attr(data-label) }).
CARD_LABELS = """
return [...arguments[0].querySelectorAll('td')].map(td => getComputedStyle(td, '::before').content);
"""


def make_alerts(machine_name: str, *metrics: str) -> tuple[int, list[int]]:
    machine = make_machine(machine_name)
    rows = []
    for n, metric in enumerate(metrics):
        alert = Alert(
            machine_id=machine.id,
            metric=metric,
            value=5.0,
            low=6.5,
            high=8.0,
            opened_at=utcnow() - timedelta(hours=3 + n),
        )
        db.session.add(alert)
        rows.append(alert)
    db.session.commit()
    return machine.id, [a.id for a in rows]


def row(browser, alert_id: int):
    return browser.find_element(By.ID, f"alert-{alert_id}")


def flashes(browser) -> str:
    return " ".join(f.text for f in browser.find_elements(By.CSS_SELECTOR, ".flashes, .flash"))


@pytest.mark.parametrize("size", WIDTHS, ids=list(WIDTHS))
def test_acknowledge_a_row_then_the_selected_then_the_next_open_alert(browser, live_server, in_app, size):
    width, height = WIDTHS[size]
    with in_app():
        staff = make_account(role=RoleId.STAFF, first_name="Nena", last_name="Bautista")
        machine_id, (ph, methane, water) = make_alerts("Digester Ack", "ph", "methane_pct", "water_l")
        username = staff.username
    set_viewport(browser, width, height)
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/sibol-machines/alerts")
    first = row(browser, ph)
    assert "Critical" in first.text and "Open, not acknowledged" in first.text and "open 3 h" in first.text
    assert "Warning" in row(browser, water).text
    assert measure(browser, width, browser.current_url) == []
    if width < 600:  # a labelled card per alert
        labels = browser.execute_script(CARD_LABELS, first)
        assert '"Severity"' in labels and '"Status"' in labels and '"Machine"' in labels
    machine_link = first.find_element(By.LINK_TEXT, "Digester Ack")
    assert machine_link.get_attribute("href").endswith(f"tab=process-panels&machine={machine_id}")
    assert (
        first.find_element(By.LINK_TEXT, f"pH alert #{ph}")
        .get_attribute("href")
        .endswith(f"/sibol-machines/alerts/{ph}")
    )

    # The row's own button acknowledges that alert, and only it.
    first.find_element(By.CSS_SELECTOR, "[data-acknowledge]").click()
    settled_wait(browser).until(lambda d: "1 alert acknowledged." in flashes(d))
    assert "Open, acknowledged" in row(browser, ph).text and "Nena Bautista" in row(browser, ph).text
    assert "Open, not acknowledged" in row(browser, methane).text

    # Tick the other two and acknowledge them together.
    for alert_id in (methane, water):
        box = browser.find_element(By.ID, f"select-{alert_id}")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        box.click()
    browser.find_element(By.ID, "acknowledge-selected").click()
    settled_wait(browser).until(lambda d: "2 alerts acknowledged." in flashes(d))
    assert all("Open, acknowledged" in row(browser, a).text for a in (ph, methane, water))
    assert not browser.find_elements(By.ID, "next-open-alert")


def test_without_javascript_a_row_acknowledges_and_the_alert_page_offers_the_next(
    browser_nojs, live_server, in_app
):
    browser = browser_nojs
    with in_app():
        staff = make_account(role=RoleId.OPERATOR)
        _machine_id, (older, newer) = make_alerts("Digester NoJS", "pressure_kpa", "temperature_c")
        username = staff.username
    set_viewport(browser, 390, 844)
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/sibol-machines/alerts")
    row(browser, newer).find_element(By.CSS_SELECTOR, "[data-acknowledge]").click()
    wait(browser).until(lambda d: "1 alert acknowledged." in flashes(d))
    assert "Open, acknowledged" in row(browser, newer).text
    assert measure(browser, 390, browser.current_url) == []

    # The next open alert is one click away, and acknowledged from its own page.
    browser.find_element(By.ID, "next-open-alert").click()
    wait(browser).until(EC.presence_of_element_located((By.ID, "acknowledge"))).click()
    wait(browser).until(lambda d: "Alert acknowledged." in flashes(d))
    assert f"/sibol-machines/alerts/{older}" in browser.current_url
    assert "No other open alert waits" in browser.find_element(By.ID, "no-next-alert").text

    # Acknowledge selected, without JavaScript, with nothing ticked: told why.
    with in_app():
        make_alerts("Digester NoJS 2", "ph")
    browser.get(f"{live_server.url}/sibol-machines/alerts")
    browser.find_element(By.ID, "acknowledge-selected").click()
    wait(browser).until(lambda d: "Select at least one alert." in flashes(d))


@pytest.mark.parametrize("size", WIDTHS, ids=list(WIDTHS))
def test_machines_badge_and_the_out_of_range_tile(browser, live_server, in_app, size):
    width, height = WIDTHS[size]
    with in_app():
        staff = make_account(role=RoleId.STAFF)
        machine = make_machine("Digester Badge")
        key = issue_key(machine.id, actor_id=None)
        calm = make_machine("Digester Calm").id
        username, machine_id = staff.username, machine.id
    # pH goes sour, then is healthy again for one reading (its alert stays open until three in
    # a row); methane drops out of range with that second reading.
    http = requests.Session()
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    reading = reading_at(DigesterState(rng=random.Random(7)), now)
    for ago, values in ((3, {"ph": 5.4}), (1, {"ph": 7.2, "methane_pct": 30.0})):
        sent = post_reading(http, live_server.url, key, {**reading, **values}, now - timedelta(minutes=ago))
        assert sent.status_code == 202
    set_viewport(browser, width, height)
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/sibol-machines?tab=machines")
    wait(browser).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, '#machines-table[aria-busy="false"]'))
    )
    badge = wait(browser).until(
        EC.presence_of_element_located(
            (By.CSS_SELECTOR, f'a[href="/sibol-machines/alerts?machine={machine_id}"]')
        )
    )
    assert badge.text == "Open alerts: 2"
    assert not browser.find_elements(By.CSS_SELECTOR, f'a[href="/sibol-machines/alerts?machine={calm}"]')

    browser.get(f"{live_server.url}/sibol-machines?tab=process-panels&machine={machine_id}")
    methane = wait(browser).until(EC.presence_of_element_located((By.ID, "sensor-methane_pct")))
    assert "Out of range" in methane.text and "Open alert #" in methane.text
    ph = browser.find_element(By.ID, "sensor-ph")
    assert "Alert open" in ph.text and "Healthy\n" not in ph.text + "\n"
    assert measure(browser, width, browser.current_url) == []


@pytest.mark.parametrize("size", WIDTHS, ids=list(WIDTHS))
def test_notifications_group_a_flapping_alert_and_filter(browser, live_server, in_app, size):
    width, height = WIDTHS[size]
    with in_app():
        staff = make_account(role=RoleId.STAFF)
        machine = make_machine("SIBOL Machine 1")
        key = issue_key(machine.id, actor_id=None)
        username = staff.username
    # pH goes out of range and back (three healthy readings close it), three times over.
    http = requests.Session()
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    reading = reading_at(DigesterState(rng=random.Random(11)), now)
    minute = 40
    for _ in range(3):
        for ph in (5.0, 7.1, 7.1, 7.1):
            sent = post_reading(
                http, live_server.url, key, {**reading, "ph": ph}, now - timedelta(minutes=minute)
            )
            assert sent.status_code == 202
            minute -= 1
    set_viewport(browser, width, height)
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/notifications")
    lines = browser.find_elements(By.CSS_SELECTOR, "#notifications tbody tr")
    assert len(lines) == 1
    assert "pH on SIBOL Machine 1: opened 3 times, closed 3 times today" in lines[0].text
    assert measure(browser, width, browser.current_url) == []
    if width < 600:
        labels = browser.execute_script(CARD_LABELS, lines[0])
        assert labels[1:] == ['"When"', '"Status"']

    # Unread shows it; opening the line marks its six notes read and goes to the alert.
    browser.find_element(By.LINK_TEXT, "Unread").click()
    line = wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, "#notifications tbody tr")))
    line.find_element(By.CSS_SELECTOR, "button.note__open").click()
    wait(browser).until(lambda d: "/sibol-machines/alerts/" in d.current_url)
    browser.get(f"{live_server.url}/notifications?show=unread")
    assert "No unread notifications." in browser.find_element(By.ID, "notifications").text

    # Not acknowledged: the newest pH alert is waiting; once acknowledged it leaves the filter.
    browser.get(f"{live_server.url}/notifications")
    browser.find_element(By.LINK_TEXT, "Alerts not acknowledged").click()
    link = wait(browser).until(EC.element_to_be_clickable((By.LINK_TEXT, "Not acknowledged")))
    link.click()
    wait(browser).until(EC.element_to_be_clickable((By.ID, "acknowledge"))).click()
    wait(browser).until(lambda d: "Alert acknowledged." in flashes(d))
    browser.get(f"{live_server.url}/notifications?show=unacknowledged")
    remaining = browser.find_element(By.ID, "notifications").text
    assert "opened 2 times, closed 2 times today" in remaining  # the two older episodes
