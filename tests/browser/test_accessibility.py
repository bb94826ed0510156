"""axe-core on every route of spec section 2: no serious or critical violations; keyboard-only sign-in."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tests.factories import DEFAULT_PASSWORD, make_admin
from tests.support.axe import UNLABELED, axe_violations, describe

PUBLIC_ROUTES = [
    "/login",
    "/signup",
    "/email-verification?email=someone%40example.org",
    "/pending-approval?email=someone%40example.org&username=someone",
]
SIGNED_IN_ROUTES = [
    "/dashboard",
    "/admin",
    "/admin/areas",
    "/sibol-machines",
    "/household",
    "/maintenance",
    "/chat-support",
]


def sign_in_with_keyboard(browser, base: str, username: str, password: str) -> None:
    browser.get(f"{base}/login")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)  # skip link
    focused = browser.switch_to.active_element
    for _ in range(10):
        if focused.get_attribute("id") == "username":
            break
        focused.send_keys(Keys.TAB)
        focused = browser.switch_to.active_element
    assert focused.get_attribute("id") == "username", "Tab never reached the username field"
    focused.send_keys(username)
    focused.send_keys(Keys.TAB)
    password_field = browser.switch_to.active_element
    assert password_field.get_attribute("id") == "password"
    password_field.send_keys(password, Keys.ENTER)
    WebDriverWait(browser, 15).until(lambda d: "/dashboard" in d.current_url)


def test_every_route_has_no_serious_accessibility_violations(live_server, browser, in_app):
    browser.set_script_timeout(30)
    problems = {}
    for route in PUBLIC_ROUTES:
        browser.get(live_server.url + route)
        found = axe_violations(browser)
        if found:
            problems[route] = describe(found)
    with in_app():
        make_admin(username="a11y.admin")
    sign_in_with_keyboard(browser, live_server.url, "a11y.admin", DEFAULT_PASSWORD)
    for route in SIGNED_IN_ROUTES:
        browser.get(live_server.url + route)
        WebDriverWait(browser, 10).until(
            lambda d: d.execute_script("return document.readyState") == "complete"
        )
        found = axe_violations(browser)
        if found:
            problems[route] = describe(found)
    assert not problems, "\n\n".join(f"{route}:\n{text}" for route, text in problems.items())


def test_every_form_field_has_a_label(live_server, browser, in_app):
    with in_app():
        make_admin(username="label.admin")
    unlabeled = {}
    for route in PUBLIC_ROUTES:
        browser.get(live_server.url + route)
        unlabeled[route] = browser.execute_script(UNLABELED)
    sign_in_with_keyboard(browser, live_server.url, "label.admin", DEFAULT_PASSWORD)
    for route in SIGNED_IN_ROUTES:
        browser.get(live_server.url + route)
        unlabeled[route] = browser.execute_script(UNLABELED)
    assert {r: f for r, f in unlabeled.items() if f} == {}


def tab_to(browser, element_id: str, limit: int = 25):
    """Press Tab until the element with this id has focus (keyboard only, no clicks)."""
    for _ in range(limit):
        active = browser.switch_to.active_element
        if active.get_attribute("id") == element_id:
            return active
        active.send_keys(Keys.TAB)
    raise AssertionError(f"Tab never reached #{element_id}")


def test_forgot_password_with_the_keyboard_alone(live_server, browser, in_app):
    import re

    from sibol.extensions import mail

    with in_app():
        make_admin(username="keys.user", email="keys.user@example.test")
    browser.get(f"{live_server.url}/login")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    tab_to(browser, "forgot-link").send_keys(Keys.ENTER)
    WebDriverWait(browser, 15).until(lambda d: d.find_elements(By.ID, "fp-email"))
    email = tab_to(browser, "fp-email")
    with mail.record_messages() as outbox:
        email.send_keys("keys.user@example.test", Keys.ENTER)
        WebDriverWait(browser, 15).until(lambda d: len(outbox) == 1)
    code = re.search(r"\b(\d{6})\b", outbox[0].body).group(1)
    # The verify step puts the focus in the first code box: no mouse needed.
    WebDriverWait(browser, 10).until(
        lambda d: (
            (boxes := d.find_elements(By.CSS_SELECTOR, ".code-input__box"))
            and d.switch_to.active_element == boxes[0]
        )
    )
    for digit in code:
        browser.switch_to.active_element.send_keys(digit)
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    WebDriverWait(browser, 15).until(lambda d: d.find_elements(By.ID, "fp-new"))
    tab_to(browser, "fp-new").send_keys("N3w-pass!word")
    tab_to(browser, "fp-confirm").send_keys("N3w-pass!word", Keys.ENTER)
    WebDriverWait(browser, 15).until(
        lambda d: "Your password was reset successfully." in d.find_element(By.TAG_NAME, "body").text
    )
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    sign_in_with_keyboard(browser, live_server.url, "keys.user", "N3w-pass!word")
