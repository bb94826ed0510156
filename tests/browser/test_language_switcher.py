"""Languages in a real browser: the switcher works with JavaScript off, on the sign-in page and in
the top bar, and the Filipino top bar still fits a phone and a laptop (the responsive layout's limits)."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from sibol.models import RoleId
from tests.factories import make_account
from tests.support.browser import TOPBAR_MAX, set_viewport, sign_in


def lang(driver) -> str:
    # One script call: an element found first can belong to the page being replaced ("Node with
    # given id does not belong to the document") while the switcher's answer loads.
    return driver.execute_script("return document.documentElement.lang")


def switch(driver, code: str) -> None:
    """Press the language's button and wait for the page it returns to."""
    form = driver.find_element(By.CSS_SELECTOR, ".language-switcher")
    form.find_element(By.CSS_SELECTOR, f'button[value="{code}"]').click()
    WebDriverWait(driver, 10).until(lambda d: lang(d) == code)


def test_switcher_without_javascript_on_sign_in_and_top_bar(live_server, in_app, browser_nojs):
    with in_app():
        make_account(role=RoleId.ADMIN, username="wika.admin")
    browser = browser_nojs
    browser.get(f"{live_server.url}/login")
    assert lang(browser) == "en"
    switch(browser, "fil")
    assert browser.current_url == f"{live_server.url}/login"
    assert lang(browser) == "fil"
    assert browser.find_element(By.CSS_SELECTOR, ".auth-card__lead").text == "Mag-sign in sa console ng SIBOL"
    sign_in(browser, live_server.url, "wika.admin")
    browser.get(f"{live_server.url}/dashboard")
    assert lang(browser) == "fil"  # the cookie, until the account chooses
    switch(browser, "en")
    assert browser.current_url == f"{live_server.url}/dashboard" and lang(browser) == "en"
    switch(browser, "fil")
    nav = browser.find_element(By.CSS_SELECTOR, ".topbar__nav").get_attribute("textContent")
    assert "Mga Makina ng SIBOL" in nav and "Sambahayan" in nav


def test_filipino_top_bar_fits_phone_and_laptop(live_server, in_app, browser):
    with in_app():
        make_account(role=RoleId.ADMIN, username="wika.lapad", language="fil")
    sign_in(browser, live_server.url, "wika.lapad")
    for width, height in ((390, 844), (1366, 768)):
        set_viewport(browser, width, height)
        browser.get(f"{live_server.url}/dashboard")
        assert lang(browser) == "fil"
        bar = browser.execute_script(
            "return document.querySelector('.topbar').getBoundingClientRect().height"
        )
        scroll = browser.execute_script("return document.documentElement.scrollWidth")
        assert bar <= TOPBAR_MAX, (width, bar)
        assert scroll <= width, (width, scroll)
