"""Account entry in headless Chromium: sign-up to dashboard, forgot password, Google, no-JS sign-in."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from sqlalchemy import select

from sibol.auth import recovery
from sibol.extensions import db, mail
from sibol.models import Account, AccountStatus, ApiToken
from tests.factories import DEFAULT_PASSWORD, make_account
from tests.factories_auth import code_in, link_in
from tests.support.browser import wait

NEW = "Fresh-Passw0rd!"


def find(browser, css: str):
    return wait(browser).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))


def path_is(path: str):
    return lambda d: d.current_url.split("?", 1)[0].split("#", 1)[0].endswith(path)


def storage(browser, key: str):
    return browser.execute_script("return window.localStorage.getItem(arguments[0])", key)


def sign_in_with_js(browser, url: str, username: str, password: str, home: str = "/dashboard") -> None:
    browser.get(f"{url}/login")
    button = find(browser, "#sign-in")
    wait(browser).until(lambda d: not button.is_enabled())  # both fields empty
    assert not browser.find_element(By.ID, "username-error").is_displayed()
    find(browser, "#username").click()
    find(browser, "#password").click()  # the username was touched and left blank
    assert find(browser, "#username-error").text == "This field is required"
    find(browser, "#username").send_keys(username)
    find(browser, "#password").send_keys(password)
    wait(browser).until(lambda d: button.is_enabled())
    button.click()
    wait(browser).until(path_is(home))  # the role's own home page


def test_sign_up_verify_approve_set_password_sign_in_and_out(live_server, browser, in_app):
    url = live_server.url
    with mail.record_messages() as outbox:
        browser.get(f"{url}/signup")
        find(browser, "#role").send_keys("Household")
        first = find(browser, "#firstName")
        first.send_keys("Ma3ria<")
        wait(browser).until(lambda d: first.get_attribute("value") == "Maria")  # stripped while typing
        find(browser, "#lastName").send_keys("Santos")
        find(browser, "#email").send_keys("maria.santos@example.test")
        assert find(browser, "#username").get_attribute("value") == "maria.santos"
        if browser.find_elements(By.CSS_SELECTOR, "select#areaId"):  # one barangay: no choice shown
            find(browser, "#areaId").send_keys("Barangay Parang")
        find(browser, "#sign-up").click()
        wait(browser).until(path_is("/email-verification"))
        assert "maria.santos@example.test" in find(browser, "[data-when=waiting]").text
        wait(browser).until(lambda d: len(outbox) == 1)
    link = link_in(outbox[0].body, "/email-verification").replace("http://localhost", url)

    browser.get(link)
    find(browser, "#verify-success")
    assert find(browser, "[data-countdown]").text in {"3", "2", "1"}
    wait(browser, 8).until(path_is("/pending-approval"))
    assert "1-2 business days" in browser.page_source
    assert "username=maria.santos" in browser.current_url
    pending_url = browser.current_url

    # The link works once: opened again, it shows the error with the hint and Resend.
    browser.get(link)
    assert find(browser, "#verify-error").text == "This verification link is invalid or has expired."
    assert "Press Resend below for a new link." in browser.page_source  # Said once
    assert find(browser, "#resend").is_displayed()
    browser.get(pending_url)

    # Check status while pending: the message in the page's flash (no browser popup).
    find(browser, "#check-status").click()
    said = find(browser, ".flashes .banner")
    assert said.text == "Your account is still awaiting admin approval."
    assert said.get_attribute("role") == "status"

    # The admin approves (owns the UI): active, with a set-password link.
    with in_app():
        account = db.session.scalar(select(Account).where(Account.username == "maria.santos"))
        set_url = recovery.activate_for_approval(account).replace("http://localhost", url)

    find(browser, "#check-status").click()
    wait(browser).until(
        lambda d: any("approved" in b.text for b in d.find_elements(By.CSS_SELECTOR, ".flashes .banner"))
    )
    wait(browser).until(path_is("/login"))  # on its own after a moment (the flash links there too)

    browser.get(set_url)
    find(browser, "#newPassword").send_keys("weak1")
    assert find(browser, "[data-pw-label]").text == "Weak"
    find(browser, "#newPassword").send_keys(Keys.CONTROL, "a")
    find(browser, "#newPassword").send_keys(NEW)
    assert find(browser, "[data-pw-label]").text == "Very strong"
    find(browser, "#confirmPassword").send_keys(NEW[:-1])
    assert find(browser, "[data-pw-match]").text == "Passwords do not match"
    find(browser, "#confirmPassword").send_keys(NEW[-1])
    assert find(browser, "[data-pw-match]").text == "Passwords match"
    find(browser, "#set-password").click()
    wait(browser).until(path_is("/login"))

    # Sign in with JavaScript: wrong password first, then the right one.
    find(browser, "#username").send_keys("maria.santos")
    find(browser, "#password").send_keys("Wrong-pass1!")
    find(browser, "#sign-in").click()
    assert find(browser, "#login-error").text == "Invalid username or password."
    sign_in_with_js(browser, url, "maria.santos", NEW, home="/household/my")  # a Household account
    assert find(browser, "h1").text == "My household"
    assert find(browser, "#home-greeting").text.endswith(", Maria")
    token = storage(browser, "token")
    assert token and json.loads(storage(browser, "user"))["Username"] == "maria.santos"

    # Logout revokes the stored token and clears storage.
    find(browser, "form[data-logout] button").click()
    wait(browser).until(path_is("/login"))
    assert storage(browser, "token") is None and storage(browser, "user") is None
    with in_app():
        assert db.session.scalar(select(ApiToken)).revoked_at is not None


def code_boxes(browser):
    return wait(browser).until(
        lambda d: (
            (found := d.find_elements(By.CSS_SELECTOR, ".code-input__box")) and len(found) == 6 and found
        )
    )


def code_value(browser) -> str:
    return "".join(b.get_attribute("value") for b in code_boxes(browser))


def test_forgot_password_with_the_emailed_code_typed_and_pasted(live_server, browser, in_app):
    with in_app():
        user = make_account(email="reset.me@example.test")
        username = user.username
    browser.get(f"{live_server.url}/login")
    # The sign-in page loads no React until the dialog opens.
    scripts = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).join(' ')"
    )
    assert "react-" not in scripts and "forgot-password-" not in scripts
    find(browser, "#forgot-link").click()
    email = find(browser, "#fp-email")
    email.send_keys("not an email")
    find(browser, ".forgot-password button[type=submit]").click()
    assert find(browser, ".forgot-password .banner--error").text == "Please enter a valid email."
    email.clear()
    with mail.record_messages() as outbox:
        email.send_keys("reset.me@example.test")
        find(browser, ".forgot-password button[type=submit]").click()
        assert find(browser, ".forgot-password .banner--info").text == "Reset code sent. Check your email."
        wait(browser).until(lambda d: len(outbox) == 1)
    code = code_in(outbox[0].body)

    # Typing moves focus; a letter is stripped; Backspace on an empty box goes back.
    boxes = code_boxes(browser)
    boxes[0].click()
    browser.switch_to.active_element.send_keys(code[0])
    browser.switch_to.active_element.send_keys("a")
    browser.switch_to.active_element.send_keys(code[1])
    assert code_value(browser) == code[:2]
    assert browser.switch_to.active_element == code_boxes(browser)[2]
    browser.switch_to.active_element.send_keys(Keys.BACKSPACE)
    assert browser.switch_to.active_element == code_boxes(browser)[1]
    # A wrong code first (pasted), then the right one pasted with noise.
    wrong = "000000" if code != "000000" else "111111"
    paste = """const box = arguments[0]; box.focus(); const data = new DataTransfer();
               data.setData('text/plain', arguments[1]);
               box.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));"""
    browser.execute_script(paste, code_boxes(browser)[0], wrong)
    wait(browser).until(lambda d: code_value(d) == wrong)
    find(browser, ".forgot-password button[type=submit]").click()
    assert "Invalid or expired code" in find(browser, ".forgot-password .banner--error").text
    browser.execute_script(paste, code_boxes(browser)[0], f"{code[:3]}-{code[3:]} ")
    wait(browser).until(lambda d: code_value(d) == code)
    find(browser, ".forgot-password button[type=submit]").click()
    assert find(browser, ".forgot-password .banner--info").text == "Code verified. Enter your new password."

    new = find(browser, "#fp-new")
    new.send_keys("abc")
    assert find(browser, ".pw-meter__label").text == "Very weak"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".pw-meter__seg")) == 5
    new.send_keys("DEF1")
    assert find(browser, ".pw-meter__label").text == "Medium"
    new.send_keys("!xy")
    assert find(browser, ".pw-meter__label").text == "Very strong"
    met = [li.get_attribute("data-met") for li in browser.find_elements(By.CSS_SELECTOR, ".pw-rules li")]
    assert met == ["true"] * 5
    find(browser, "#fp-confirm").send_keys("abcDEF1!x")
    assert find(browser, ".pw-match").text == "Passwords do not match"
    find(browser, ".forgot-password button[type=submit]").click()
    # Said beside the confirm field, which gets the focus (no browser popup).
    assert find(browser, "#fp-confirm-error").text == "Passwords do not match"
    assert browser.switch_to.active_element.get_attribute("id") == "fp-confirm"
    assert find(browser, "#fp-confirm").get_attribute("aria-invalid") == "true"
    find(browser, "#fp-confirm").send_keys("y")
    assert not browser.find_elements(By.ID, "fp-confirm-error")
    assert find(browser, ".pw-match").text == "Passwords match"
    toggle = find(browser, "#fp-confirm + button")
    toggle.click()
    assert find(browser, "#fp-confirm").get_attribute("type") == "text"
    find(browser, ".forgot-password button[type=submit]").click()
    assert find(browser, ".forgot-password .banner--success").text == "Your password was reset successfully."
    find(browser, ".forgot-password .modal__actions .btn--primary").click()  # Close

    # Reopening starts again at the email step with everything cleared.
    find(browser, "#forgot-link").click()
    assert find(browser, "#fp-email").get_attribute("value") == ""
    find(browser, ".forgot-password .modal__actions .btn").click()  # Cancel
    wait(browser).until(EC.invisibility_of_element_located((By.ID, "forgot-password")))

    sign_in_with_js(browser, live_server.url, username, "abcDEF1!xy")


@pytest.fixture
def live_overrides(provider, monkeypatch):
    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")  # the local provider speaks http
    return provider.config()


def test_google_sign_in_for_active_pending_and_unknown_accounts(live_server, browser, in_app, provider):
    url = live_server.url
    with in_app():
        active = make_account(email="active.g@example.test", first_name="Gina")
        pending = make_account(email="pending.g@example.test", status=AccountStatus.PENDING, password=None)
        active_name, pending_name = active.username, pending.username

    provider.user = {"sub": "g-1", "email": "active.g@example.test", "email_verified": True}
    browser.get(f"{url}/login")
    find(browser, "#google-sign-in").click()
    wait(browser).until(path_is("/dashboard"))
    wait(browser).until(lambda d: "#" not in d.current_url)  # the hash was stripped
    assert "Gina" in find(browser, "h1").text
    assert json.loads(storage(browser, "user"))["Username"] == active_name and storage(browser, "token")
    find(browser, "form[data-logout] button").click()
    wait(browser).until(path_is("/login"))

    provider.user = {"sub": "g-2", "email": "pending.g@example.test", "email_verified": True}
    find(browser, "#google-sign-in").click()
    wait(browser).until(path_is("/pending-approval"))
    assert f"username={pending_name}" in browser.current_url

    provider.user = {
        "sub": "g-3",
        "email": "newbie@example.test",
        "email_verified": True,
        "given_name": "Nene",
        "family_name": "Reyes",
    }
    browser.get(f"{url}/login")
    find(browser, "#google-sign-in").click()
    wait(browser).until(path_is("/signup"))
    email = find(browser, "#email")
    assert email.get_attribute("value") == "newbie@example.test" and email.get_attribute("readonly")
    assert find(browser, "#sso-message").text
    assert find(browser, "#firstName").get_attribute("value") == "Nene"
    find(browser, "#role").send_keys("Operator")
    if browser.find_elements(By.CSS_SELECTOR, "select#areaId"):  # one barangay: no choice shown
        find(browser, "#areaId").send_keys("Barangay Nangka")
    find(browser, "#sign-up").click()
    wait(browser).until(path_is("/pending-approval"))
    with in_app():
        account = db.session.scalar(select(Account).where(Account.email == "newbie@example.test"))
        assert account.status == AccountStatus.PENDING and account.google_subject == "g-3"

    provider.refuse = True
    browser.get(f"{url}/login")
    find(browser, "#google-sign-in").click()
    wait(browser).until(lambda d: "auth=fail" in d.current_url)
    assert "Google sign-in failed" in browser.page_source
    provider.refuse = False


def test_dashboard_handoff_from_the_query_and_auth_fail(live_server, browser, in_app):
    with in_app():
        username = make_account().username
    sign_in_with_js(browser, live_server.url, username, DEFAULT_PASSWORD)
    browser.get(f"{live_server.url}/dashboard?access_token=handed-over&user=%7Bbroken")
    wait(browser).until(lambda d: "access_token" not in d.current_url)
    assert storage(browser, "token") == "handed-over"
    assert json.loads(storage(browser, "user"))["Username"] == username  # invalid user ignored
    browser.get(f"{live_server.url}/dashboard?auth=fail")
    wait(browser).until(path_is("/login"))


def test_sign_in_without_javascript(live_server, browser_nojs, in_app):
    with in_app():
        username = make_account(first_name="Nojs").username
        pending_name = make_account(status=AccountStatus.PENDING).username
    browser = browser_nojs
    browser.get(f"{live_server.url}/login")
    find(browser, "#sign-in").click()
    assert find(browser, "#username-error").text == "This field is required"
    find(browser, "#username").send_keys(pending_name)
    find(browser, "#password").send_keys(DEFAULT_PASSWORD)
    find(browser, "#sign-in").click()
    assert "Your account is awaiting admin approval." in find(browser, ".flashes").text
    find(browser, "#username").clear()
    find(browser, "#username").send_keys(username)
    find(browser, "#password").send_keys(DEFAULT_PASSWORD)
    find(browser, "#sign-in").click()
    wait(browser).until(path_is("/dashboard"))
    assert "Nojs" in find(browser, "h1").text
    find(browser, "form[data-logout] button").click()
    wait(browser).until(path_is("/login"))
