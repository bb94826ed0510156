"""Small things a reviewer saw, each checked as a user sees it at a phone's and a laptop's width:
the Rewards name cell, the dashboard's grid and its energy chart with few figures, one Google
note on the sign-in card, the sign-up name field that says what it leaves out, distinct words
for the maintenance tab and button, the monthly report's sign-off, and counts in the singular."""

from __future__ import annotations

import re
from datetime import date

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.household import EnergyReading
from tests.factories import make_account
from tests.factories_household import make_reward
from tests.support.browser import set_viewport, settled_wait, sign_in

WIDTHS = ((390, 844), (1366, 768))
PHONE = 600


@pytest.fixture(params=WIDTHS, ids=["390", "1366"])
def width(request, browser) -> int:
    set_viewport(browser, *request.param)
    return request.param[0]


def box(browser, selector: str) -> dict:
    return browser.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {left: r.left, right: r.right, top: r.top, width: r.width};",
        selector,
    )


def test_the_rewards_name_cell_is_one_cell_with_its_label(live_server, browser, in_app, width):
    with in_app():
        make_reward("Reusable eco bag with a long name", points=100)
        username = make_account(role=RoleId.ADMIN).username
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/household?tab=rewards")
    cell = browser.execute_script(
        "const td = document.querySelector('#rewards-table tbody td:nth-child(2)');"
        "const name = td.querySelector('.reward-name');"
        "return {display: getComputedStyle(td).display, label: td.dataset.label,"
        " before: getComputedStyle(td, '::before').content, text: name.innerText,"
        " cellTop: td.getBoundingClientRect().top, nameTop: name.getBoundingClientRect().top};"
    )
    assert cell["text"] == "Reusable eco bag with a long name" and cell["label"] == "Name"
    if width < PHONE:  # a card row: the label beside the name, on the same line
        assert cell["display"] == "grid" and cell["before"] == '"Name"'
        assert abs(cell["nameTop"] - cell["cellTop"]) < 12
    else:
        assert cell["display"] == "table-cell"


def test_the_dashboard_grid_has_no_empty_column_and_few_figures_are_bars(live_server, browser, in_app, width):
    with in_app():
        db.session.add(EnergyReading(month=date(date.today().year, 1, 1), kilowatts=120))
        db.session.commit()
        username = make_account(role=RoleId.ADMIN).username
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/dashboard")
    grid, energy = box(browser, ".dashboard"), box(browser, ".dashboard__energy")
    assert abs(energy["width"] - grid["width"]) < 2  # the whole row: no empty column beside it
    if width >= 1100:
        tops = {round(box(browser, f".dashboard__{c}")["top"]) for c in ("waste", "process", "schedule")}
        assert len(tops) == 1  # three side by side above it
    assert browser.find_elements(By.CSS_SELECTOR, ".dashboard__energy svg.chart__svg--bar rect[fill]")
    assert not browser.find_elements(By.CSS_SELECTOR, ".dashboard__energy svg circle")
    # Pointing at the chart loads Chart.js for the doughnut, but the bars stay.
    ActionChains(browser).move_to_element(
        browser.find_element(By.CSS_SELECTOR, ".dashboard__energy .chart")
    ).perform()
    settled_wait(browser).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".dashboard__energy svg.chart__svg--bar")
    )
    assert not browser.find_element(By.ID, "energy-chart").is_displayed()


def test_the_sign_in_card_says_once_that_google_is_off(live_server, browser, width):
    browser.get(f"{live_server.url}/login")
    notes = [e for e in browser.find_elements(By.XPATH, "//*[contains(text(), 'Google sign-in is not')]")]
    assert len(notes) == 1 and notes[0].is_displayed()
    google = browser.find_element(By.ID, "google-sign-in")
    assert google.get_attribute("aria-describedby") == notes[0].get_attribute("id")
    assert not google.get_attribute("title")


def test_the_sign_up_name_keeps_the_letters_and_says_what_it_left_out(live_server, browser, width):
    browser.get(f"{live_server.url}/signup")
    first = browser.find_element(By.ID, "firstName")
    first.send_keys("Niña3")
    assert first.get_attribute("value") == "Niña"
    error = browser.find_element(By.ID, "firstName-error")
    assert error.is_displayed()
    assert error.text == (
        "Not allowed in a name, left out: “3”. Use letters, spaces, hyphens, apostrophes and periods."
    )
    # Pasted text: every character left out is named, once.
    last = browser.find_element(By.ID, "lastName")
    browser.execute_script(
        "arguments[0].value = 'Dela Cruz 3@3'; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
        last,
    )
    assert last.get_attribute("value") == "Dela Cruz "
    assert "left out: “3” “@”." in browser.find_element(By.ID, "lastName-error").text
    first.send_keys(" Cruz")
    assert first.get_attribute("value") == "Niña Cruz"
    assert not error.is_displayed()


def test_the_maintenance_tab_and_its_button_say_different_things(live_server, browser, in_app, width):
    with in_app():
        username = make_account(role=RoleId.ADMIN).username
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/maintenance?tab=request")
    tab = browser.find_element(By.CSS_SELECTOR, "main [aria-current=page]")
    button = browser.find_element(By.ID, "mnt-new-button")
    assert "Request Maintenance" in tab.text
    assert button.text == "New maintenance request" and button.is_displayed()


def test_the_monthly_report_ends_with_its_sign_off(live_server, browser, in_app, width):
    with in_app():
        username = make_account(role=RoleId.ADMIN, first_name="Rosa", last_name="Lim").username
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/reports/monthly")
    signoff = browser.find_element(By.CSS_SELECTOR, ".report__signoff")
    assert "Prepared by:" in signoff.text and "Noted by:" in signoff.text
    assert browser.find_element(By.ID, "prepared-by").text == "Rosa Lim"
    assert "Punong Barangay" in signoff.text
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width


def test_a_count_of_one_is_singular(live_server, browser, in_app, width):
    with in_app():
        username = make_account(role=RoleId.CITY_ADMIN).username
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/city/barangays")
    label = browser.find_element(By.CSS_SELECTOR, ".pager__label").text
    assert label == "1 barangay", label
    assert not re.search(r"\b1 barangays\b", browser.page_source)
