"""Two-step sign-in in a real browser: set it up on /profile (QR code, key as text, recovery codes
with Copy and Print), sign out, and sign in again with the authenticator's code, each code
computed with pyotp from the key the page showed; and the second form with JavaScript off."""

from __future__ import annotations

import time

import pyotp
from selenium.webdriver.common.by import By

from tests.factories import DEFAULT_PASSWORD, make_account
from tests.support.browser import settled_wait, sign_in


def test_set_up_on_the_profile_then_sign_in_with_the_code(live_server, browser, in_app):
    with in_app():
        username = make_account(first_name="Rosa").username
    base = live_server.url
    sign_in(browser, base, username)
    browser.get(f"{base}/profile")
    browser.find_element(By.CSS_SELECTOR, "#two-factor-start button").click()
    settled_wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#two-factor-qr svg"))
    assert browser.find_element(By.CSS_SELECTOR, "#two-factor-qr svg").is_displayed()
    secret = "".join(browser.find_element(By.ID, "totp-secret").text.split())
    totp = pyotp.TOTP(secret)

    browser.find_element(By.ID, "tf-code").send_keys(totp.now())
    browser.find_element(By.CSS_SELECTOR, "#two-factor-confirm button[type=submit]").click()
    settled_wait(browser).until(lambda d: d.find_elements(By.ID, "recovery-codes"))
    codes = browser.find_element(By.ID, "recovery-codes").text.split()
    assert len(codes) == 10
    assert browser.find_element(By.CSS_SELECTOR, "[data-copy=recovery-codes]").is_displayed()
    assert browser.find_element(By.CSS_SELECTOR, "[data-print]").is_displayed()

    browser.find_element(By.CSS_SELECTOR, "form[data-logout] button").click()
    settled_wait(browser).until(lambda d: d.find_elements(By.ID, "username"))
    browser.find_element(By.ID, "username").send_keys(username)
    browser.find_element(By.ID, "password").send_keys(DEFAULT_PASSWORD)
    browser.find_element(By.ID, "sign-in").click()
    # The island learns a code is needed and the page's second form takes over.
    settled_wait(browser).until(lambda d: d.find_elements(By.ID, "totp"))
    assert not browser.find_elements(By.ID, "password")
    # The next step's code: the one used to set it up cannot be used again.
    browser.find_element(By.ID, "totp").send_keys(totp.at(time.time() + totp.interval))
    browser.find_element(By.ID, "verify-code").click()
    settled_wait(browser).until(lambda d: "/login" not in d.current_url)
    browser.get(f"{base}/profile")
    assert "10 recovery codes left." in browser.find_element(By.ID, "two-factor").text


def test_sign_in_with_the_code_without_javascript(live_server, live_app, browser_nojs, in_app):
    with in_app():
        username = make_account(first_name="Nena").username
    # Set up through the API (the page set-up is the test above); the key as the app would hold it.
    api = live_app.test_client()
    token = api.post("/api/auth/login", json={"username": username, "password": DEFAULT_PASSWORD}).json[
        "token"
    ]
    headers = {"Authorization": f"Bearer {token}"}
    secret = api.post("/api/me/totp", headers=headers).json["secret"]
    totp = pyotp.TOTP(secret)
    assert api.post("/api/me/totp/confirm", json={"code": totp.now()}, headers=headers).status_code == 200

    base = live_server.url
    browser_nojs.get(f"{base}/login")
    browser_nojs.find_element(By.ID, "username").send_keys(username)
    browser_nojs.find_element(By.ID, "password").send_keys(DEFAULT_PASSWORD)
    browser_nojs.find_element(By.ID, "sign-in").click()
    settled_wait(browser_nojs).until(lambda d: d.find_elements(By.ID, "totp"))
    browser_nojs.find_element(By.ID, "totp").send_keys("000000" if totp.now() != "000000" else "111111")
    browser_nojs.find_element(By.ID, "verify-code").click()
    settled_wait(browser_nojs).until(lambda d: "That code is not right" in d.page_source)
    browser_nojs.find_element(By.ID, "totp").send_keys(totp.at(time.time() + totp.interval))
    browser_nojs.find_element(By.ID, "verify-code").click()
    settled_wait(browser_nojs).until(lambda d: "/login" not in d.current_url)
    browser_nojs.get(f"{base}/profile")
    assert "10 recovery codes left." in browser_nojs.find_element(By.ID, "two-factor").text
