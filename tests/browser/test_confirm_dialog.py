"""The one confirmation dialog and the one result message, at a phone's and a laptop's width:
the styled dialog (open, keyboard, Escape, Cancel, yes), the flash and Undo of an admin action
with JavaScript, no Disable on one's own row, the approval card on a phone, and Add Machine
through to its device key shown once."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from sibol.models import RoleId
from tests.factories import make_account, make_admin
from tests.factories_admin import make_pending
from tests.support.browser import answer_confirm, set_viewport, settled_wait, sign_in

WIDTHS = [pytest.param(390, 844, id="phone"), pytest.param(1366, 900, id="laptop")]


def flash_texts(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('.flashes .banner')].map(b => b.innerText)"
    )


def active_id(driver) -> str:
    return driver.execute_script("return document.activeElement && document.activeElement.id") or ""


def no_sideways_scroll(driver) -> bool:
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")


def disable_button(driver, username: str):
    return settled_wait(driver).until(
        lambda d: d.find_element(
            By.CSS_SELECTOR, f"#accounts-table tr[data-username='{username}'] form[data-admin-toggle] button"
        )
    )


def island_ready(driver) -> None:
    settled_wait(driver).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-island='admin-console'][data-island-mounted]")
    )


@pytest.mark.parametrize("width,height", WIDTHS)
def test_disable_asks_in_the_styled_dialog_then_flash_and_undo(live_server, browser, in_app, width, height):
    with in_app():
        make_admin(username="boss")
        make_account(username="worker", role=RoleId.STAFF)
    set_viewport(browser, width, height)
    sign_in(browser, live_server.url, "boss")
    browser.get(f"{live_server.url}/admin")
    island_ready(browser)

    # One's own row offers no Disable; the other account's does.
    assert not browser.find_elements(
        By.CSS_SELECTOR, "#accounts-table tr[data-username='boss'] form[data-admin-toggle]"
    )
    button = disable_button(browser, "worker")
    button.click()
    dialog = settled_wait(browser).until(EC.visibility_of_element_located((By.ID, "confirm-dialog")))
    assert dialog.get_attribute("role") == "alertdialog"
    title = browser.find_element(By.ID, dialog.get_attribute("aria-labelledby")).text
    message = browser.find_element(By.ID, dialog.get_attribute("aria-describedby")).text
    assert title == "Disable account"
    assert message.startswith("Disable account for ") and message.endswith("They will be signed out.")
    yes = dialog.find_element(By.ID, "confirm-dialog-yes")
    assert yes.text == "Disable" and "btn--danger" in yes.get_attribute("class")
    # The whole dialog is on screen, at this width too.
    box = browser.execute_script(
        "const r = document.getElementById('confirm-dialog').getBoundingClientRect();"
        "return [r.left, r.right, window.innerWidth];"
    )
    assert box[0] >= 0 and box[1] <= box[2]

    # Keyboard: focus starts on yes, Tab stays inside the dialog, Escape cancels and gives it back.
    assert active_id(browser) == "confirm-dialog-yes"
    for _ in range(3):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        assert active_id(browser) in ("confirm-dialog-yes", "confirm-dialog-cancel")
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    settled_wait(browser).until(lambda d: not d.find_elements(By.ID, "confirm-dialog"))
    assert browser.switch_to.active_element == button
    assert "Disable" in button.text  # nothing happened

    # Cancel is a no too.
    button.click()
    assert answer_confirm(browser, yes=False).startswith("Disable account for")
    assert browser.current_url.endswith("/admin") and not flash_texts(browser)

    # Yes: the same flash and Undo as without JavaScript.
    button.click()
    answer_confirm(browser)
    settled_wait(browser).until(lambda d: "Account worker disabled." in flash_texts(d))
    undo = browser.find_element(By.ID, "undo")
    assert undo.text.startswith("worker was disabled.")
    assert no_sideways_scroll(browser)
    browser.find_element(By.ID, "undo-button").click()
    settled_wait(browser).until(lambda d: "Account worker enabled." in flash_texts(d))
    # A used Undo banner goes away, also on the next page.
    assert not browser.find_elements(By.ID, "undo")
    browser.get(f"{live_server.url}/admin")
    assert not browser.find_elements(By.ID, "undo")
    assert disable_button(browser, "worker").text == "Disable"


@pytest.mark.parametrize("width,height", WIDTHS)
def test_approval_card_and_its_dialog(live_server, browser, in_app, width, height):
    with in_app():
        make_admin(username="boss")
        make_pending(username="pia", first_name="Pia", last_name="Uno")
    set_viewport(browser, width, height)
    sign_in(browser, live_server.url, "boss")
    browser.get(f"{live_server.url}/admin?tab=approval")
    island_ready(browser)
    label, select = browser.execute_script(
        "const f = document.querySelector('form[data-admin-approve]');"
        "const l = f.querySelector('label').getBoundingClientRect();"
        "const s = f.querySelector('select').getBoundingClientRect();"
        "return [[l.top, l.bottom, l.left], [s.top, s.bottom, s.left]];"
    )
    if width < 600:
        assert label[1] <= select[0] + 1  # "Approve as" stands above its select on a phone
    else:
        assert label[0] < select[1] and select[0] < label[1]  # beside it on a laptop
    browser.find_element(By.CSS_SELECTOR, "form[data-admin-approve] button").click()
    assert answer_confirm(browser) == "Approve account for Pia Uno?"
    settled_wait(browser).until(lambda d: "Account approved" in flash_texts(d))
    assert no_sideways_scroll(browser)


@pytest.mark.parametrize("width,height", WIDTHS)
def test_add_machine_then_issue_its_key_shown_once(live_server, browser, in_app, width, height):
    with in_app():
        staff = make_account(role=RoleId.STAFF)
        username = staff.username
    set_viewport(browser, width, height)
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/sibol-machines?tab=machines")
    settled_wait(browser).until(
        lambda d: "Loading machines..." not in d.find_element(By.ID, "machines-table").text
    )
    browser.find_element(By.ID, "machines-add").click()
    dialog = settled_wait(browser).until(EC.visibility_of_element_located((By.ID, "machine-add")))
    Select(dialog.find_element(By.ID, "machine-add-area")).select_by_visible_text("Purok 2")
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    # The name is required: said beside the field, which gets the focus.
    error = settled_wait(browser).until(lambda d: d.find_element(By.ID, "machine-add-name-error"))
    assert error.text == "Machine Name is required." and active_id(browser) == "machine-add-name"
    browser.switch_to.active_element.send_keys("Purok 2 Digester")
    assert not browser.find_elements(By.ID, "machine-add-name-error")
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()

    created = settled_wait(browser).until(EC.visibility_of_element_located((By.ID, "machine-created")))
    assert "Machine Purok 2 Digester created." in created.text
    created.find_element(By.ID, "issue-device-key").click()

    key = settled_wait(browser).until(EC.visibility_of_element_located((By.ID, "device-key"))).text
    assert key and "/device-key" in browser.current_url
    copy = browser.find_element(By.CSS_SELECTOR, "button[data-copy='device-key']")
    assert copy.is_displayed() and copy.text == "Copy"
    http = browser.find_element(By.ID, "http-settings").text
    assert f"POST {live_server.url}/api/telemetry" in http or "/api/telemetry" in http
    assert "Authorization: Device <key>" in http
    assert browser.find_element(By.ID, "mqtt-settings").is_displayed()
    assert no_sideways_scroll(browser)
    copy.click()
    settled_wait(browser).until(lambda d: copy.text in ("Copied", "Copy"))

    # Shown once: the device page again says the key is issued, without it.
    browser.get(browser.current_url.rsplit("/device-key", 1)[0] + "/device")
    assert not browser.find_elements(By.ID, "device-key")
    assert key not in browser.page_source
    assert browser.find_element(By.ID, "key-state").text.startswith("Issued")
    assert ">None<" not in browser.page_source


def test_add_machine_and_its_key_without_javascript(live_server, browser_nojs, in_app):
    with in_app():
        username = make_account(role=RoleId.STAFF).username
    driver = browser_nojs
    set_viewport(driver, 390, 844)
    sign_in(driver, live_server.url, username)
    driver.get(f"{live_server.url}/sibol-machines?tab=machines&add=1")
    Select(driver.find_element(By.ID, "nojs-add-area")).select_by_visible_text("Purok 2")
    driver.find_element(By.CSS_SELECTOR, "#machine-add-nojs button[type=submit]").click()
    # Refused: the dialog again, the error beside the name, the area kept.
    # The page is replaced: wait for the answer's text, not for an element the old page has too.
    settled_wait(driver).until(
        lambda d: d.find_element(By.ID, "nojs-add-name-error").text == "Machine Name is required."
    )
    assert Select(driver.find_element(By.ID, "nojs-add-area")).first_selected_option.text == "Purok 2"
    driver.find_element(By.ID, "nojs-add-name").send_keys("Purok 2 Digester")
    driver.find_element(By.CSS_SELECTOR, "#machine-add-nojs button[type=submit]").click()
    settled_wait(driver).until(lambda d: d.current_url.endswith("/device"))
    assert "Machine Purok 2 Digester created. Issue its device key to connect it." in flash_texts_nojs(driver)
    driver.find_element(By.ID, "issue-key").click()
    assert settled_wait(driver).until(lambda d: d.find_element(By.ID, "device-key")).text
    assert not driver.find_element(By.CSS_SELECTOR, "button[data-copy]").is_displayed()  # needs JavaScript
    assert "/api/telemetry" in driver.find_element(By.ID, "http-settings").text
    assert no_sideways_scroll(driver)


def flash_texts_nojs(driver) -> list[str]:
    return [b.text for b in driver.find_elements(By.CSS_SELECTOR, ".flashes .banner")]
