"""The islands speak the browser's language: a Chromium asking for Filipino gets the
sign-in page's islands, and the Forgot Password dialog loaded on demand, in Filipino; the page
embeds the translations, so no request fetches them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from tests.support.browser import CHROMEDRIVER, chrome_options

FIL_PO = Path(__file__).resolve().parents[2] / "sibol/translations/fil/LC_MESSAGES/islands.po"


def filipino(text: str) -> str:
    """`text`'s translation in the islands' Filipino catalogue (it differs from the English)."""
    with FIL_PO.open("rb") as handle:
        translated = read_po(handle, locale="fil").get(text).string
    assert translated and translated != text
    return translated


@pytest.fixture
def filipino_browser(browser_binary):
    options, profile = chrome_options(browser_binary)
    options.add_argument("--lang=fil")
    options.add_experimental_option("prefs", {"intl.accept_languages": "fil,en"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def find(browser, css: str):
    return WebDriverWait(browser, 10).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))


def test_sign_in_islands_in_filipino(live_server, filipino_browser):
    browser = filipino_browser
    browser.get(f"{live_server.url}/login")
    find(browser, "#forgot-link").click()
    email = find(browser, "#fp-email")
    label = browser.find_element(By.CSS_SELECTOR, "label[for=fp-email]")
    assert label.text == filipino("Enter your account email")
    submit = find(browser, ".forgot-password button[type=submit]")
    assert submit.text == filipino("Send Reset Code")
    email.send_keys("not an email")
    submit.click()
    assert find(browser, ".forgot-password .banner--error").text == filipino("Please enter a valid email.")
    requests = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).join(' ')"
    )
    assert "islands.po" not in requests and "messages" not in requests

    # The login island's own check, on leaving an empty field.
    browser.get(f"{live_server.url}/login")
    find(browser, "#username").click()
    find(browser, "#password").click()
    error = browser.find_element(By.ID, "username-error")
    WebDriverWait(browser, 10).until(lambda _d: error.get_attribute("textContent"))
    assert error.get_attribute("textContent") == filipino("This field is required")
