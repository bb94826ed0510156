"""Driving headless Chromium: starting a driver, one driver for all of a test process's browser
tests (each test gets it as new), and the one way tests sign in."""

from __future__ import annotations

import os
import re
import shutil
import signal
import tempfile
from collections.abc import Callable
from urllib.parse import urljoin, urlsplit

import requests
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
COMMAND_TIMEOUT = 120  # seconds for one WebDriver command (a page load has its own 30)


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
    # Selenium waits for chromedriver's answer without a limit by default: a browser that stops
    # answering would hang the whole test run. Every command gets COMMAND_TIMEOUT seconds.
    driver.command_executor._client_config.timeout = COMMAND_TIMEOUT
    driver.sibol_profile = profile
    return driver


def kill(driver: WebDriver) -> None:
    """End a driver that may no longer answer: chromedriver and the Chromium of its profile are
    killed rather than asked to quit (a hung browser would not answer that either)."""
    process = getattr(getattr(driver, "service", None), "process", None)
    if process is not None:
        process.kill()
    profile = getattr(driver, "sibol_profile", "")
    for pid in os.listdir("/proc") if profile else ():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                if f"--user-data-dir={profile}".encode() in file.read():
                    os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError):
            continue


# The servers the browser tests started (tests/browser/conftest.py, tests/support/offline.py):
# what a page of theirs stored in the browser is cleared after each test.
ORIGINS: set[str] = set()


class SharedDriver:
    """A Chromium handed out by `take()` (tests/browser/conftest.py gives each test its own and
    kills it after; `give_back()` can reset one for reuse).

    `take()` hands it out; `give_back()` leaves it as a new one would be: one fresh tab (the
    DevTools settings of the old one, such as an emulated screen, network or print media and
    scripts added to new documents, close with it), no cookies, nothing cached, nothing stored by
    any page of the servers in ORIGINS or of the pages left open. A driver that cannot be reset
    is quit, and the next test gets a new one."""

    def __init__(self, start: Callable[[], WebDriver]):
        self.start = start
        self.driver: WebDriver | None = None

    def take(self) -> WebDriver:
        if self.driver is None:
            self.driver = self.start()
        return self.driver

    def give_back(self) -> None:
        driver = self.driver
        if driver is None:
            return
        try:
            origins = set(ORIGINS)
            for handle in driver.window_handles:
                driver.switch_to.window(handle)
                origins.add(driver.current_url)
            old = driver.window_handles
            driver.switch_to.new_window("tab")
            fresh = driver.current_window_handle
            for handle in old:
                driver.switch_to.window(handle)
                driver.close()
            driver.switch_to.window(fresh)
            driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
            driver.execute_cdp_cmd("Network.clearBrowserCache", {})
            for url in origins:
                parts = urlsplit(url)
                if parts.scheme in ("http", "https"):
                    driver.execute_cdp_cmd(
                        "Storage.clearDataForOrigin",
                        {"origin": f"{parts.scheme}://{parts.netloc}", "storageTypes": "all"},
                    )
        except Exception:  # noqa: BLE001 - WebDriverException, or urllib3's time-out of a hung browser
            self.kill()
        finally:
            ORIGINS.clear()

    def kill(self) -> None:
        """A driver that could not be reset: ended without asking it, the next test gets a new one."""
        if self.driver is not None:
            driver, self.driver = self.driver, None
            kill(driver)
            shutil.rmtree(driver.sibol_profile, ignore_errors=True)

    def quit(self) -> None:
        if self.driver is not None:
            driver, self.driver = self.driver, None
            try:
                driver.quit()
            except WebDriverException:
                pass
            shutil.rmtree(driver.sibol_profile, ignore_errors=True)


def sign_in(driver: WebDriver, base: str, username: str, password: str = DEFAULT_PASSWORD) -> None:
    """Sign the browser in and open the page /login sends the account to (with or without
    JavaScript). The /login form is posted over HTTP, with the browser's User-Agent, and the
    browser is handed that session's cookie: the same signed-in session without loading and
    typing into the sign-in page. Tests of the sign-in page itself drive the form instead."""
    http = requests.Session()
    http.headers["User-Agent"] = driver.execute_cdp_cmd("Browser.getVersion", {})["userAgent"]
    page = http.get(f"{base}/login", timeout=10)
    token = re.search(r'name="csrf_token" value="([^"]*)"', page.text)
    assert token, f"no CSRF token on {base}/login ({page.status_code})"
    res = http.post(
        f"{base}/login",
        data={"csrf_token": token.group(1), "username": username, "password": password},
        allow_redirects=False,
        timeout=10,
    )
    assert res.status_code == 302, f"signing in as {username}: {res.status_code} {res.text[:300]}"
    for cookie in http.cookies:
        driver.execute_cdp_cmd(
            "Network.setCookie",
            {
                "name": cookie.name,
                "value": cookie.value or "",
                "url": base,
                "path": cookie.path or "/",
                "httpOnly": bool(cookie.has_nonstandard_attr("HttpOnly")),
            },
        )
    driver.get(urljoin(f"{base}/login", res.headers["Location"]))


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
