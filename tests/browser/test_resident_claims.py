"""A household signs in, sees its balance, requests a claim; staff redeem the typed code in
another browser; the resident's balance and claim state change (Chromium,)."""

from __future__ import annotations

import shutil

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from sibol.extensions import db
from sibol.models import RoleId
from tests.factories import make_account
from tests.factories_household import make_member, make_reward
from tests.support.axe import UNLABELED, axe_violations, describe
from tests.support.browser import make_driver, sign_in


def test_resident_claims_and_staff_redeem_the_typed_code(live_server, browser, browser_binary, in_app):
    with in_app():
        home = make_account(role=RoleId.HOUSEHOLD, first_name="Nora", last_name="Diaz")
        member = make_member("Nora Diaz", points=250)
        member.account_id = home.id
        db.session.commit()
        make_member("Pedro Alonzo Reyes", points=900)
        make_reward("Eco bag", points=100)
        make_reward("Bicycle", points=5000)
        home_name, staff_name = home.username, make_account(role=RoleId.STAFF).username

    sign_in(browser, live_server.url, home_name)
    wait = WebDriverWait(browser, 10)
    browser.get(f"{live_server.url}/household")
    assert browser.find_element(By.TAG_NAME, "h1").text == "My household"
    assert browser.find_element(By.ID, "points-balance").text == "250"
    rewards = browser.find_element(By.ID, "affordable-rewards").text
    assert "Eco bag" in rewards and "Bicycle" not in rewards
    board = browser.find_element(By.ID, "resident-leaderboard").text
    assert "Pedro A." in board and "Pedro Alonzo Reyes" not in board
    browser.find_element(By.CSS_SELECTOR, "button[aria-label='Claim Eco bag']").click()
    wait.until(lambda d: "Eco bag reserved" in d.page_source)
    assert browser.find_element(By.ID, "points-balance").text == "150"
    row = browser.find_element(By.CSS_SELECTOR, "#my-claims tbody tr")
    assert row.find_element(By.CSS_SELECTOR, ".claim-state").text == "Waiting for pick-up"
    code = row.find_element(By.CSS_SELECTOR, ".claim-code").text
    assert len(code) == 8

    staff = make_driver(browser_binary)
    try:
        sign_in(staff, live_server.url, staff_name)
        staff.get(f"{live_server.url}/household?tab=claimed")
        staff.find_element(By.PARTIAL_LINK_TEXT, "Redeem a claim").click()
        WebDriverWait(staff, 10).until(lambda d: "/household/redeem" in d.current_url)
        staff.find_element(By.NAME, "code").send_keys(code.lower())
        staff.find_element(By.CSS_SELECTOR, "#redeem-form button[type=submit]").click()
        WebDriverWait(staff, 10).until(lambda d: d.find_elements(By.ID, "redeemed"))
        assert "Redeemed: Eco bag for Nora Diaz" in staff.find_element(By.ID, "redeemed").text
        # The same code again is refused.
        staff.find_element(By.NAME, "code").send_keys(code)
        staff.find_element(By.CSS_SELECTOR, "#redeem-form button[type=submit]").click()
        WebDriverWait(staff, 10).until(lambda d: "already redeemed" in d.page_source)
    finally:
        staff.quit()
        shutil.rmtree(staff.sibol_profile, ignore_errors=True)

    browser.refresh()
    row = browser.find_element(By.CSS_SELECTOR, "#my-claims tbody tr")
    assert row.find_element(By.CSS_SELECTOR, ".claim-state").text == "Redeemed"
    assert browser.find_element(By.ID, "points-balance").text == "150"
    assert not row.find_elements(By.XPATH, ".//button[text()='Cancel claim']")


def test_new_pages_have_no_serious_accessibility_violations(live_server, browser, in_app):
    with in_app():
        home = make_account(role=RoleId.HOUSEHOLD)
        member = make_member("Iris Tan", points=300)
        member.account_id = home.id
        db.session.commit()
        make_reward("Eco bag", points=100)
        home_name, staff_name, member_id = home.username, make_account(role=RoleId.STAFF).username, member.id
    browser.set_script_timeout(30)
    problems = {}
    for username, routes in (
        (home_name, ["/household", "/profile"]),
        (staff_name, ["/household/redeem", f"/household/members/{member_id}/account"]),
    ):
        browser.delete_all_cookies()
        sign_in(browser, live_server.url, username)
        for route in routes:
            browser.get(live_server.url + route)
            found = axe_violations(browser)
            if found:
                problems[route] = describe(found)
            unlabeled = browser.execute_script(UNLABELED)
            if unlabeled:
                problems[route + " labels"] = str(unlabeled)
    assert not problems, "\n\n".join(f"{route}:\n{text}" for route, text in problems.items())
