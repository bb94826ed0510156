"""/admin in headless Chromium: the modal island, row actions with the spec's dialogs, paging,
and the table with JavaScript off."""

from __future__ import annotations

import shutil

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import Account, AccountStatus, RoleId
from tests.factories import make_account, make_admin
from tests.factories_admin import make_pending
from tests.support.browser import answer_confirm, make_driver, sign_in

WAIT = 10


def wait(driver, timeout: float = WAIT) -> WebDriverWait:
    # The list reloads under us after each action: a row found a moment ago may be gone.
    return WebDriverWait(driver, timeout, ignored_exceptions=(WebDriverException,))


def island_ready(driver) -> None:
    wait(driver).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-island='admin-console'][data-island-mounted]")
    )


def row_texts(driver, table: str = "accounts-table") -> list[str]:
    """The rows' text, read in one script call (the list may be reloading)."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(r => r.innerText.trim())",
        f"#{table} tbody tr",
    )


def row_text(driver, username: str) -> str:
    return driver.execute_script(
        "const r = document.querySelector(`#accounts-table tr[data-username='${arguments[0]}']`);"
        "return r ? r.innerText : '';",
        username,
    )


def role_text(driver, username: str) -> str:
    return driver.execute_script(
        "const c = document.querySelector("
        "`#accounts-table tr[data-username='${arguments[0]}'] td[data-label='Role']`);"
        "return c ? c.innerText.trim() : '';",
        username,
    )


def row_for(driver, username: str):
    return wait(driver).until(
        lambda d: d.find_element(By.CSS_SELECTOR, f"#accounts-table tr[data-username='{username}']")
    )


def answer_dialog(driver, text: str | None = None, keys: str | None = None) -> str:
    """Answers yes to the styled confirmation, checking its message."""
    seen = answer_confirm(driver, keys=keys)
    if text is not None:
        assert seen == text
    return seen


def flash_texts(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('.flashes .banner')].map(b => b.innerText)"
    )


def test_create_users_then_edit_role_and_access(live_server, browser, in_app):
    with in_app():
        make_admin(username="boss")
    base = live_server.url
    sign_in(browser, base, "boss")
    browser.get(f"{base}/admin")
    island_ready(browser)

    # Without a password: a set-password link is e-mailed, no password is shown.
    browser.find_element(By.CSS_SELECTOR, "[data-admin-create]").click()
    modal = wait(browser).until(EC.visibility_of_element_located((By.CSS_SELECTOR, "[role=dialog]")))
    modal.find_element(By.ID, "m-first").send_keys("Rosa")
    modal.find_element(By.ID, "m-last").send_keys("Dela Paz")
    assert modal.find_element(By.ID, "m-username").get_attribute("value") == "rosa.dela.paz"
    modal.find_element(By.ID, "m-email").send_keys("rosa@example.test")
    Select(modal.find_element(By.ID, "m-role")).select_by_visible_text("Operator")
    modal.find_element(By.XPATH, ".//button[normalize-space()='Create User']").click()
    sent = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-set-password-sent]"))
    assert "rosa@example.test" in sent.text
    browser.find_element(By.XPATH, "//button[normalize-space()='Done']").click()
    row = row_for(browser, "rosa.dela.paz")
    assert "Operator" in row.text and "SIBOL Machines" in row.text

    # With a password: none is shown.
    island_ready(browser)
    browser.find_element(By.CSS_SELECTOR, "[data-admin-create]").click()
    modal = wait(browser).until(EC.visibility_of_element_located((By.CSS_SELECTOR, "[role=dialog]")))
    modal.find_element(By.ID, "m-first").send_keys("Carlo")
    modal.find_element(By.ID, "m-last").send_keys("Tan")
    modal.find_element(By.ID, "m-email").send_keys("carlo@example.test")
    modal.find_element(By.ID, "m-password").send_keys("Carl0!pass")
    modal.find_element(By.XPATH, ".//button[normalize-space()='Create User']").click()
    wait(browser).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-created-username]").text == "carlo.tan"
    )
    assert browser.find_elements(By.CSS_SELECTOR, "[data-set-password-sent]") == []
    assert "Carl0!pass" not in browser.page_source
    browser.find_element(By.XPATH, "//button[normalize-space()='Done']").click()
    row_for(browser, "carlo.tan")

    # Edit Rosa: Household with the defaults plus Maintenance.
    island_ready(browser)
    row_for(browser, "rosa.dela.paz").find_element(By.CSS_SELECTOR, "[data-admin-edit]").click()
    modal = wait(browser).until(EC.visibility_of_element_located((By.CSS_SELECTOR, "[role=dialog]")))
    assert modal.find_element(By.ID, "m-email").get_attribute("readonly") is not None
    assert "boss created the account" in modal.text
    Select(modal.find_element(By.ID, "m-role")).select_by_visible_text("Household")
    modal.find_element(By.XPATH, './/button[normalize-space()="Use the role\'s default modules"]').click()
    modal.find_element(By.XPATH, ".//label[normalize-space()='Maintenance']/input").click()
    modal.find_element(By.XPATH, ".//button[normalize-space()='Save changes']").click()
    # The role cell, not the row: operators hold the Household module, so its chip is there already.
    wait(browser).until(lambda d: role_text(d, "rosa.dela.paz") == "Household")
    with in_app():
        rosa = db.session.scalar(select(Account).where(Account.username == "rosa.dela.paz"))
        assert rosa.role_id == RoleId.HOUSEHOLD and sorted(rosa.module_ids) == [1, 3, 4, 5]
    # Carlo signs in with the password the admin typed, in a fresh session.
    browser.delete_all_cookies()
    sign_in(browser, base, "carlo.tan", "Carl0!pass")
    # The form's default role is Household, whose home is My household.
    assert "/household/my" in browser.current_url


def test_disable_throws_out_the_open_session_then_enable(live_server, browser, browser_binary, in_app):
    with in_app():
        make_admin(username="boss")
        make_account(username="worker", role=RoleId.STAFF)
    base = live_server.url
    other = make_driver(browser_binary)
    try:
        sign_in(other, base, "worker")
        other.get(f"{base}/sibol-machines")
        assert "/sibol-machines" in other.current_url

        sign_in(browser, base, "boss")
        browser.get(f"{base}/admin")
        island_ready(browser)
        row_for(browser, "worker").find_element(By.XPATH, ".//button[normalize-space()='Disable']").click()
        assert answer_dialog(browser).startswith("Disable account for")  # Asks first
        wait(browser).until(lambda d: "Disabled" in row_text(d, "worker"))
        # The same flash and Undo as without JavaScript.
        assert "Account worker disabled." in flash_texts(browser)
        assert browser.find_element(By.ID, "undo").text.startswith("worker was disabled.")

        other.get(f"{base}/sibol-machines")
        wait(other).until(lambda d: "/login" in d.current_url)
        assert "Your account has been disabled. Contact your barangay administrator." in other.page_source

        island_ready(browser)
        row_for(browser, "worker").find_element(By.XPATH, ".//button[normalize-space()='Enable']").click()
        wait(browser).until(lambda d: "Active" in row_text(d, "worker"))
        sign_in(other, base, "worker")
        assert "/dashboard" in other.current_url
    finally:
        other.quit()
        shutil.rmtree(other.sibol_profile, ignore_errors=True)


def test_approve_one_pending_account_and_reject_another(live_server, browser, in_app):
    with in_app():
        make_admin(username="boss")
        make_pending(username="pia", first_name="Pia", last_name="Uno")
        make_pending(username="rex", first_name="Rex", last_name="Dos")
    base = live_server.url
    sign_in(browser, base, "boss")
    browser.get(f"{base}/admin?tab=approval")
    island_ready(browser)
    assert browser.find_element(By.ID, "pending-badge").text == "2"

    browser.find_element(By.CSS_SELECTOR, "[data-name='Pia Uno'] button").click()
    answer_dialog(browser, "Approve account for Pia Uno?")
    wait(browser).until(lambda d: "Account approved" in flash_texts(d))
    # The reloaded list (not the loading row in its place): only Rex is left.
    wait(browser).until(lambda d: [r.split()[0] for r in row_texts(d, "pending-table")] == ["rex"])
    assert browser.find_element(By.ID, "pending-badge").text == "1"
    island_ready(browser)
    browser.find_element(By.CSS_SELECTOR, "form[data-admin-reject][data-name='Rex Dos'] button").click()
    answer_dialog(browser, "Reject account for Rex Dos?", keys="Not from this barangay")
    wait(browser).until(lambda d: "Account rejected" in flash_texts(d))
    wait(browser).until(lambda d: row_texts(d, "pending-table") == ["No pending accounts."])
    assert browser.find_element(By.ID, "pending-badge").text == "0"
    with in_app():
        pia = db.session.scalar(select(Account).where(Account.username == "pia"))
        rex = db.session.scalar(select(Account).where(Account.username == "rex"))
        assert pia.status == AccountStatus.ACTIVE
        assert rex.status == AccountStatus.REJECTED and rex.rejection_reason == "Not from this barangay"


def test_admin_request_needs_the_role_named_a_second_time(live_server, browser, in_app):
    with in_app():
        make_admin(username="boss")
        make_pending(username="ada", first_name="Ada", last_name="Min", role=RoleId.ADMIN)
    base = live_server.url
    sign_in(browser, base, "boss")
    browser.get(f"{base}/admin?tab=approval")
    island_ready(browser)
    badge = browser.find_element(By.CSS_SELECTOR, "[data-requests-admin]")
    assert badge.text == "Requests Admin: all six modules"
    browser.find_element(By.CSS_SELECTOR, "form[data-admin-approve][data-name='Ada Min'] button").click()
    answer_dialog(browser, "Approve account for Ada Min?")
    answer_dialog(
        browser,
        'Ada Min asked for the Admin role: all six modules, including account administration. Type "Admin" to approve as an administrator.',
        keys="Admin",
    )
    wait(browser).until(lambda d: "Account approved" in flash_texts(d))
    wait(browser).until(lambda d: row_texts(d, "pending-table") == ["No pending accounts."])
    with in_app():
        ada = db.session.scalar(select(Account).where(Account.username == "ada"))
        assert ada.status == AccountStatus.ACTIVE and ada.role_id == RoleId.ADMIN and 6 in ada.module_ids


def test_paging_search_and_role_filter(live_server, browser, in_app):
    with in_app():
        make_admin(username="boss")
        for n in range(24):
            make_account(username=f"member{n:02d}", role=RoleId.OPERATOR if n < 4 else RoleId.HOUSEHOLD)
    base = live_server.url
    sign_in(browser, base, "boss")
    browser.get(f"{base}/admin")
    island_ready(browser)
    label = browser.find_element(By.CSS_SELECTOR, ".pager__label")
    assert label.text == "1-10 of 25" and len(row_texts(browser)) == 10
    browser.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, ".pager__label").text == "11-20 of 25")
    browser.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, ".pager__label").text == "21-25 of 25")
    assert "page=3" in browser.current_url
    browser.refresh()  # the query string keeps the page
    assert browser.find_element(By.CSS_SELECTOR, ".pager__label").text == "21-25 of 25"
    island_ready(browser)
    Select(browser.find_element(By.ID, "per_page")).select_by_visible_text("25")
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, ".pager__label").text == "1-25 of 25")

    island_ready(browser)
    Select(browser.find_element(By.ID, "role")).select_by_visible_text("Operator")
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, ".pager__label").text == "1-4 of 4")
    search = browser.find_element(By.ID, "q")
    search.send_keys("MEMBER03\n")
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, ".pager__label").text == "1-1 of 1")
    assert row_texts(browser)[0].startswith("member03")
    assert "role=3" in browser.current_url and "q=MEMBER03" in browser.current_url


def test_table_and_actions_without_javascript(live_server, browser_nojs, in_app):
    with in_app():
        make_admin(username="boss")
        for n in range(11):
            make_account(username=f"plain{n:02d}")
        make_pending(username="waiting", first_name="Wai", last_name="Ting")
    base = live_server.url
    driver = browser_nojs
    sign_in(driver, base, "boss")
    driver.get(f"{base}/admin")
    assert driver.find_element(By.CSS_SELECTOR, ".pager__label").text == "1-10 of 12"
    assert driver.find_element(By.ID, "pending-badge").text == "1"
    driver.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, ".pager__label").text == "11-12 of 12")
    driver.find_element(By.ID, "q").send_keys("plain05\n")
    wait(driver).until(lambda d: [r.split()[0] for r in row_texts(d)] == ["plain05"])
    row_for(driver, "plain05").find_element(By.XPATH, ".//button[normalize-space()='Disable']").click()
    # Without JavaScript the confirmation is a page; Yes disables, then Undo is offered.
    wait(driver).until(lambda d: d.find_element(By.ID, "confirm-title").text.startswith("Disable "))
    driver.find_element(By.ID, "confirm-yes").click()
    wait(driver).until(lambda d: "Account plain05 disabled." in d.page_source)
    assert "Disabled" in row_text(driver, "plain05") and "q=plain05" in driver.current_url
    driver.find_element(By.ID, "undo-button").click()
    wait(driver).until(lambda d: "Account plain05 enabled." in d.page_source)
    assert "Active" in row_text(driver, "plain05")
    driver.find_element(By.ID, "tab-approval").click()
    wait(driver).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "form[data-admin-reject] input[name=reason]")
    )
    driver.find_element(By.CSS_SELECTOR, "form[data-admin-reject] input[name=reason]").send_keys(
        "Unknown person"
    )
    driver.find_element(By.CSS_SELECTOR, "form[data-admin-reject] button").click()
    wait(driver).until(
        lambda d: "Account rejected" in d.page_source and "No pending accounts." in d.page_source
    )
    with in_app():
        assert (
            db.session.scalar(select(Account).where(Account.username == "waiting")).rejection_reason
            == "Unknown person"
        )
