"""Forgot Password with JavaScript off: the whole recovery as form posts, then sign in."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from sibol.extensions import mail
from tests.factories import make_account
from tests.factories_auth import code_in
from tests.support.browser import settled_wait

NEW = "Fresh-Passw0rd!"


def find(browser, css: str):
    return WebDriverWait(browser, 10).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))


def submit(browser, css: str) -> None:
    """Click a button or link that loads a new page, and wait for that page."""
    page = browser.find_element(By.TAG_NAME, "html")
    find(browser, css).click()
    settled_wait(browser).until(EC.staleness_of(page))


def step_is(browser, step: str) -> None:
    WebDriverWait(browser, 10).until(
        lambda d: d.find_element(By.ID, "fp-steps").get_attribute("data-step") == step
    )


def test_forgot_password_without_javascript(live_server, browser_nojs, in_app):
    browser = browser_nojs
    with in_app():
        username = make_account(email="nojs.reset@example.test", first_name="Nojs").username
    browser.get(f"{live_server.url}/login")
    submit(browser, "#forgot-link")  # a plain link to /login?forgot=1
    assert find(browser, "#forgot-password-title").text == "Forgot Password"
    assert find(browser, "label[for=forgot-email]").text == "Enter your account email"
    assert find(browser, "#forgot-cancel").text == "Cancel"
    find(browser, "#forgot-email").send_keys("not an email")
    submit(browser, "#forgot-send")
    assert find(browser, "#fp-steps .banner--error").text == "Please enter a valid email."

    with mail.record_messages() as outbox:
        find(browser, "#forgot-email").clear()
        find(browser, "#forgot-email").send_keys("nojs.reset@example.test")
        submit(browser, "#forgot-send")
        step_is(browser, "verify")
        assert find(browser, "#fp-steps .banner--info").text == "Reset code sent. Check your email."
        WebDriverWait(browser, 10).until(lambda d: len(outbox) == 1)
    code = code_in(outbox[0].body)
    assert find(browser, "label[for=forgot-code]").text == "Enter 6-digit code"
    assert "Didn't get an email?" in find(browser, ".fp-resend").text

    wrong = "000000" if code != "000000" else "111111"
    find(browser, "#forgot-code").send_keys(wrong)
    submit(browser, "#forgot-verify")
    assert (
        find(browser, "#fp-steps .banner--error").text
        == "Invalid or expired code. Request a new code if needed."
    )
    find(browser, "#forgot-code").send_keys(code)
    submit(browser, "#forgot-verify")
    step_is(browser, "reset")
    assert find(browser, "#fp-steps .banner--info").text == "Code verified. Enter your new password."

    find(browser, "#newPassword").send_keys("weakpass")
    find(browser, "#confirmPassword").send_keys("weakpass")
    submit(browser, "#forgot-reset")
    assert find(browser, "#fp-steps .banner--error").text == (
        "Password must be at least 8 chars and include upper, lower, number, and symbol."
    )
    met = {
        li.get_attribute("data-rule"): li.get_attribute("data-met")
        for li in browser.find_elements(By.CSS_SELECTOR, ".pw-rules li")
    }
    assert met == {"length": "true", "upper": "false", "lower": "true", "number": "false", "symbol": "false"}
    find(browser, "#newPassword").send_keys(NEW)
    find(browser, "#confirmPassword").send_keys(NEW + "x")
    submit(browser, "#forgot-reset")
    assert find(browser, "#fp-steps .banner--error").text == "Passwords do not match"
    find(browser, "#newPassword").send_keys(NEW)
    find(browser, "#confirmPassword").send_keys(NEW)
    submit(browser, "#forgot-reset")
    step_is(browser, "done")
    assert find(browser, "#fp-steps .banner--success").text == "Your password was reset successfully."
    submit(browser, "#forgot-close")

    WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/login"))
    find(browser, "#username").send_keys(username)
    find(browser, "#password").send_keys(NEW)
    submit(browser, "#sign-in")
    WebDriverWait(browser, 10).until(lambda d: "/dashboard" in d.current_url)
    assert "Nojs" in find(browser, "h1").text
