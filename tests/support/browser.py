"""Driving headless Chromium: starting a driver, and the one way tests sign in through /login."""

from __future__ import annotations

import os
import tempfile

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.ui import WebDriverWait

from tests.factories import DEFAULT_PASSWORD

CHROMIUM = os.environ.get("SIBOL_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("SIBOL_CHROMEDRIVER", "/usr/bin/chromedriver")
# The top bar's greatest height at every width (a Menu button on phones).
TOPBAR_MAX = 64


def chrome_options(binary: str, prefix: str = "sibol-chrome-"):
    """Headless Chromium's options as this machine needs them (no network, no first-run work) and
    a fresh profile folder: (options, profile). The tests and bench/pages_bench.py start it so."""
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    profile = tempfile.mkdtemp(prefix=prefix)
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    return options, profile


def make_driver(binary: str, *, javascript: bool = True) -> WebDriver:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options, profile = chrome_options(binary)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    driver.sibol_profile = profile
    return driver


def sign_in(driver: WebDriver, base: str, username: str, password: str = DEFAULT_PASSWORD) -> None:
    """Fill the /login form and submit it (with or without JavaScript); returns once the browser
    has left /login. Tests of the sign-in page itself drive the form step by step instead."""
    driver.get(f"{base}/login")
    driver.find_element(By.ID, "username").send_keys(username)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.ID, "sign-in").click()
    WebDriverWait(driver, 10).until(lambda d: "/login" not in d.current_url)


def settled_wait(driver: WebDriver, timeout: float = 10) -> WebDriverWait:
    """A wait whose condition is tried again when the page swaps under it: an element found on
    the page being replaced is stale, and Chromium may answer "Node with given id does not belong
    to the document" (a plain WebDriverException). A condition that never holds still times out."""
    return WebDriverWait(driver, timeout, ignored_exceptions=(WebDriverException,))


def wait(driver: WebDriver, timeout: float = 10) -> WebDriverWait:
    """A plain wait; where the page re-renders under the test, use settled_wait."""
    return WebDriverWait(driver, timeout)


def set_viewport(driver: WebDriver, width: int, height: int) -> None:
    """Emulates a screen of this size (a phone's below 600 px wide)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def answer_confirm(
    driver: WebDriver, *, yes: bool = True, keys: str | None = None, timeout: float = 10
) -> str:
    """Answers the styled confirmation dialog (static_src/lib/confirm.ts): types `keys` into its
    box when given, presses its yes (or Cancel) button, waits until it is gone; returns its message."""
    dialog = settled_wait(driver, timeout).until(
        lambda d: next((e for e in d.find_elements(By.ID, "confirm-dialog") if e.is_displayed()), None)
    )
    message = dialog.find_element(By.ID, "confirm-dialog-message").text
    if keys is not None:
        dialog.find_element(By.TAG_NAME, "input").send_keys(keys)
    dialog.find_element(By.ID, "confirm-dialog-yes" if yes else "confirm-dialog-cancel").click()
    # This dialog goes (a follow-up question is a new one).
    WebDriverWait(driver, timeout).until(staleness_of(dialog))
    return message
