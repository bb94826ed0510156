"""A temporary password in headless Chromium: the admin's modal says so, the user's sign-in (with
JavaScript and without) leads to the set-your-password form, and the banner stays until then."""

from __future__ import annotations

from datetime import timedelta

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from sibol.extensions import db
from sibol.models import Account, utcnow
from tests.factories import make_account, make_admin
from tests.support.axe import axe_violations, describe
from tests.support.browser import sign_in, wait

TEMPORARY = "k3x9a0qz"  # 8 lower-case letters and digits: fails the password rule
OWN = "Own-Passw0rd!"


def path_is(path: str):
    return lambda d: d.current_url.split("?", 1)[0].endswith(path)


def test_admin_gives_a_temporary_password_and_the_user_replaces_it(live_server, browser, in_app):
    with in_app():
        make_admin(username="boss")
    base = live_server.url
    sign_in(browser, base, "boss")
    browser.get(f"{base}/admin")
    wait(browser).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-island='admin-console'][data-island-mounted]")
    )
    browser.find_element(By.CSS_SELECTOR, "[data-admin-create]").click()
    modal = wait(browser).until(EC.visibility_of_element_located((By.CSS_SELECTOR, "[role=dialog]")))
    modal.find_element(By.ID, "m-first").send_keys("Lito")
    modal.find_element(By.ID, "m-last").send_keys("Reyes")
    modal.find_element(By.ID, "m-email").send_keys("lito@example.test")
    Select(modal.find_element(By.ID, "m-role")).select_by_visible_text("Operator")
    modal.find_element(By.ID, "m-password").send_keys(TEMPORARY)
    modal.find_element(By.XPATH, ".//button[normalize-space()='Create User']").click()
    notice = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-password-temporary]"))
    assert "temporary: it works for 72 hours, or until lito.reyes sets their own" in notice.text
    assert "lito@example.test" in browser.find_element(By.CSS_SELECTOR, "[data-set-password-sent]").text
    assert TEMPORARY not in browser.page_source

    # Lito signs in on the sign-in page (its island signs in through the API): straight to the form.
    browser.delete_all_cookies()
    browser.get(f"{base}/login?next=/household")
    browser.find_element(By.ID, "username").send_keys("lito.reyes")
    browser.find_element(By.ID, "password").send_keys(TEMPORARY)
    wait(browser).until(lambda d: d.find_element(By.ID, "sign-in").is_enabled())
    browser.find_element(By.ID, "sign-in").click()
    wait(browser).until(path_is("/choose-password"))
    assert "You signed in with a temporary password" in browser.find_element(By.ID, "choose-intro").text
    browser.set_script_timeout(30)
    found = axe_violations(browser)
    assert not found, describe(found)

    # Skipped for now: the banner says so on every page, with the way back.
    browser.get(f"{base}/dashboard")
    banner = wait(browser).until(EC.visibility_of_element_located((By.ID, "temporary-password")))
    assert "You are using a temporary password." in banner.text
    found = axe_violations(browser)
    assert not found, describe(found)
    banner.find_element(By.ID, "temporary-password-link").click()
    wait(browser).until(path_is("/choose-password"))
    browser.find_element(By.ID, "newPassword").send_keys(OWN)
    browser.find_element(By.ID, "confirmPassword").send_keys(OWN)
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-pw-label]").text == "Very strong")
    browser.find_element(By.ID, "choose-password").click()
    wait(browser).until(path_is("/dashboard"))
    assert "Your password is set." in browser.page_source
    assert browser.find_elements(By.ID, "temporary-password") == []
    with in_app():
        lito = db.session.query(Account).filter_by(username="lito.reyes").one()
        assert lito.password_expires_at is None


def test_without_javascript_the_sign_in_form_leads_to_the_form_too(live_server, browser_nojs, in_app):
    with in_app():
        make_account(username="temp", password=TEMPORARY, password_expires_at=utcnow() + timedelta(hours=72))
    base = live_server.url
    sign_in(browser_nojs, base, "temp", TEMPORARY)
    wait(browser_nojs).until(path_is("/choose-password"))
    browser_nojs.find_element(By.ID, "newPassword").send_keys(OWN)
    browser_nojs.find_element(By.ID, "confirmPassword").send_keys(OWN + "?")
    browser_nojs.find_element(By.ID, "choose-password").click()
    error = wait(browser_nojs).until(EC.visibility_of_element_located((By.ID, "choose-error")))
    assert error.text == "Passwords do not match"
    browser_nojs.find_element(By.ID, "newPassword").send_keys(OWN)
    browser_nojs.find_element(By.ID, "confirmPassword").send_keys(OWN)
    browser_nojs.find_element(By.ID, "choose-password").click()
    wait(browser_nojs).until(path_is("/dashboard"))
    assert "Your password is set." in browser_nojs.page_source
