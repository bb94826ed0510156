"""Each role's day starts on its own page, at 390 and 1366 px: the landing page after sign-in
with its greeting, a top bar that stays one row on a laptop (in English and Filipino), the bell
beside the Menu button on a phone, and the City Admin's barangay switcher with and without
JavaScript."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from sibol.extensions import db
from sibol.models import Barangay, RoleId
from tests.factories import make_account
from tests.factories_household import make_member
from tests.support.browser import TOPBAR_MAX, set_viewport, settled_wait, sign_in

HOMES = {
    RoleId.ADMIN: ("/dashboard", "Dashboard"),
    RoleId.STAFF: ("/dashboard", "Dashboard"),
    RoleId.OPERATOR: ("/sibol-machines", "SIBOL Machines"),
    RoleId.HOUSEHOLD: ("/household/my", "My household"),
    RoleId.CITY_ADMIN: ("/city", "City dashboard"),
}

# The bar's own items (the folded panel's parts are items too on a laptop): their tops, bottoms,
# the right edge of the last, and the page's width without a scrollbar.
ROW = """
const bar = document.querySelector('.topbar');
const items = [...bar.querySelectorAll(':scope > *, .topbar__panel > *')]
  .filter(e => getComputedStyle(e).display !== 'contents' && e.getClientRects().length);
const boxes = items.map(e => e.getBoundingClientRect());
return {height: bar.getBoundingClientRect().height, tops: boxes.map(b => Math.round(b.top)),
        right: Math.max(...boxes.map(b => b.right)), width: document.documentElement.clientWidth};
"""
PHONE = """
const bell = document.getElementById('bell'), menu = document.querySelector('.topbar__menu-btn');
const b = bell.getBoundingClientRect(), m = menu.getBoundingClientRect();
return {inPanel: !!bell.closest('#topbar-panel'), sameRow: Math.abs(b.top + b.height / 2 - m.top - m.height / 2) < 4,
        beside: m.left - b.right, shown: b.width > 0 && b.right <= innerWidth,
        emoji: /\\p{Extended_Pictographic}/u.test(bell.textContent), svg: !!bell.querySelector('svg'),
        scroll: document.documentElement.scrollWidth, inner: innerWidth};
"""


def one_row(browser, where: str) -> None:
    row = browser.execute_script(ROW)
    assert row["height"] <= TOPBAR_MAX, f"{where}: the top bar is {row['height']} px high"
    assert max(row["tops"]) - min(row["tops"]) < 16, f"{where}: the top bar wraps {row['tops']}"
    assert row["right"] <= row["width"] + 1, (
        f"{where}: the top bar runs {row['right'] - row['width']:.0f} px off"
    )


def switch_language(browser, code: str) -> None:
    browser.find_element(By.CSS_SELECTOR, f'.language-switcher button[value="{code}"]').click()
    settled_wait(browser).until(lambda d: d.execute_script("return document.documentElement.lang") == code)


@pytest.mark.parametrize("role", list(HOMES), ids=lambda r: r.name.lower())
def test_each_role_lands_on_its_page_with_a_one_row_bar_and_the_bell_beside_menu(
    live_server, browser, in_app, role
):
    with in_app():
        account = make_account(role=role, first_name="Ana", last_name="Dela Cruz-Santos")
        if role == RoleId.HOUSEHOLD:
            make_member("Ana Dela Cruz", points=250).account_id = account.id
            db.session.commit()
        for n in range(1, 4):  # a City Admin's switcher with barangays to choose from
            db.session.add(Barangay(name=f"Barangay San Isidro Labrador {n}"))
        db.session.commit()
        username = account.username
    path, title = HOMES[role]
    set_viewport(browser, 1366, 768)
    sign_in(browser, live_server.url, username)
    settled_wait(browser).until(lambda d: d.current_url == live_server.url + path)
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith(title.split()[0]) or title in browser.title
    assert browser.find_element(By.ID, "home-greeting").text.endswith(", Ana")
    one_row(browser, f"{role.name} 1366 en")
    switch_language(browser, "fil")
    one_row(browser, f"{role.name} 1366 fil")
    assert browser.find_element(By.ID, "home-greeting").text.startswith("Magandang ")
    switch_language(browser, "en")

    browser.get(live_server.url + "/")  # "/" is the home page too
    settled_wait(browser).until(lambda d: d.current_url == live_server.url + path)

    set_viewport(browser, 390, 844)
    browser.get(live_server.url + path)
    phone = browser.execute_script(PHONE)
    assert not phone["inPanel"] and phone["sameRow"] and 0 <= phone["beside"] < 24, phone
    assert phone["shown"] and phone["svg"] and not phone["emoji"], phone
    assert phone["scroll"] <= phone["inner"], f"{role.name} 390: the page scrolls sideways"
    bell = browser.find_element(By.ID, "bell")
    assert bell.is_displayed() and bell.get_attribute("aria-label") == "Notifications, 0 unread"
    assert not browser.find_element(By.CSS_SELECTOR, ".topbar__nav a").is_displayed()  # the menu is folded
    assert (
        browser.execute_script("return document.querySelector('.topbar').getBoundingClientRect().height")
        <= TOPBAR_MAX
    )


def choose_in_switcher(browser, name: str, *, javascript: bool) -> None:
    switcher = browser.find_element(By.ID, "barangay-filter")
    switcher.find_element(By.TAG_NAME, "summary").click()
    select = browser.find_element(By.ID, "barangay-filter-select")
    assert select.is_displayed()
    box = browser.execute_script(
        "const r = document.querySelector('.context-switch__menu').getBoundingClientRect();"
        "return [r.left, r.right, innerWidth, document.documentElement.scrollWidth]"
    )
    assert box[0] >= 0 and box[1] <= box[2] and box[3] <= box[2], f"the open switcher leaves the screen {box}"
    Select(select).select_by_visible_text(name)
    if not javascript:  # with JavaScript the choice submits itself
        switcher.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    settled_wait(browser).until(lambda d: d.find_element(By.ID, "barangay-filter-current").text == name)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("width", [390, 1366])
def test_city_admin_switches_barangay_in_the_header(live_server, request, in_app, javascript, width):
    driver = request.getfixturevalue("browser" if javascript else "browser_nojs")  # one Chromium
    with in_app():
        db.session.add_all([Barangay(name="Barangay Malinis"), Barangay(name="Barangay Masagana")])
        db.session.commit()
        username = make_account(role=RoleId.CITY_ADMIN, first_name="Ana").username
    set_viewport(driver, width, 844 if width < 600 else 768)
    sign_in(driver, live_server.url, username)
    settled_wait(driver).until(lambda d: d.current_url == f"{live_server.url}/city")
    current = driver.find_element(By.ID, "barangay-filter-current")
    assert current.is_displayed() and current.text == "All barangays"  # outside the folded menu too
    if javascript:  # Escape closes the open dropdown
        driver.find_element(By.CSS_SELECTOR, "#barangay-filter summary").click()
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        settled_wait(driver).until(
            lambda d: d.find_element(By.ID, "barangay-filter").get_attribute("open") is None
        )
    driver.get(f"{live_server.url}/sibol-machines")
    choose_in_switcher(driver, "Barangay Masagana", javascript=javascript)
    assert driver.current_url == f"{live_server.url}/sibol-machines"  # back where the choice was made
    assert "Showing Barangay Masagana." in driver.find_element(By.TAG_NAME, "main").text
    # The city's own pages are in the switcher's dropdown.
    driver.find_element(By.CSS_SELECTOR, "#barangay-filter summary").click()
    driver.find_element(By.CSS_SELECTOR, ".context-switch__links a[href='/city/barangays']").click()
    settled_wait(driver).until(lambda d: d.current_url == f"{live_server.url}/city/barangays")
    choose_in_switcher(driver, "All barangays", javascript=javascript)
