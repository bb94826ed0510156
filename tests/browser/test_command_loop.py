"""The loop closes in headless Chromium: the device simulator (sibol.telemetry.simulator, the code
behind `flask telemetry simulate`) runs a machine against the live server, taking its commands
over HTTP; an operator on the machine's device page sends `stir 5` and sees it become `executed`
without a reload; `generator stop` asks first, and once confirmed the readings show 0 V.
Without JavaScript the form posts and the history's Refresh link shows the new status."""

from __future__ import annotations

import re
import threading
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from sibol.extensions import db
from sibol.models import RoleId
from sibol.telemetry.simulator import run
from tests.factories import make_account, make_machine
from tests.support.browser import answer_confirm, settled_wait, sign_in

WITHIN = 10  # seconds: what the console promises for a change to show
POLL = 2.0  # the simulated controller takes its commands every 2 s (the simulator's default)


class _Stopped(Exception):
    pass


class Simulator:
    """`sibol.telemetry.simulator.run` in a thread against the live server: it issues the first
    machine's key and then only speaks HTTP, as a controller would. Stopped at the end."""

    def __init__(self, app, base_url: str) -> None:
        self.app, self.base_url = app, base_url
        self.lines: list[str] = []
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.error: BaseException | None = None

    def _sleep(self, seconds: float) -> None:
        if self.stop_event.wait(seconds):
            raise _Stopped

    def _run(self) -> None:
        with self.app.app_context():
            try:
                run(self.base_url, 1, 2.0, 0, 0.0, 0.0, 17, echo=self.lines.append, poll=POLL,
                    sleep=self._sleep)  # fmt: skip
            except _Stopped:
                pass
            except BaseException as err:  # noqa: BLE001 - reported by the test
                self.error = err
            finally:
                db.session.remove()

    def __enter__(self) -> Simulator:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not any("new device key issued" in line for line in self.lines):
            assert time.monotonic() < deadline and self.error is None, (self.error, self.lines)
            time.sleep(0.1)
        return self

    def __exit__(self, *exc) -> None:
        self.stop_event.set()
        self.thread.join(timeout=20)
        assert not self.thread.is_alive(), "the simulator did not stop"


def shown(driver, css: str) -> str:
    return driver.find_element(By.CSS_SELECTOR, css).text


def status_of(driver, command_id: int) -> str:
    return driver.find_element(By.ID, f"command-{command_id}").get_attribute("data-status")


def sent_id(driver) -> int:
    """The command's number from the flash once the send has come back ("... queued as #7.")."""
    flash = settled_wait(driver).until(
        lambda d: re.search(r"queued as #(\d+)", d.find_element(By.TAG_NAME, "body").text)
    )
    return int(flash.group(1))


def mark_page(driver) -> None:
    """A marker that a reload would wipe: the page must keep it while its regions change."""
    driver.execute_script("window.sibolSamePage = true;")


def same_page(driver) -> bool:
    return driver.execute_script("return window.sibolSamePage === true;")


def operator_and_machine(in_app, name: str) -> tuple[str, int]:
    with in_app():
        operator = make_account(role=RoleId.OPERATOR, first_name="Nora", last_name="Aquino")
        machine = make_machine(name)
        return operator.username, machine.id


def test_stir_becomes_executed_without_a_reload_and_generator_stop_asks(
    browser, live_server, live_app, in_app
):
    username, machine_id = operator_and_machine(in_app, "Digester Loop")
    device_page = f"{live_server.url}/sibol-machines/machines/{machine_id}/device"
    with Simulator(live_app, live_server.url) as sim:
        sign_in(browser, live_server.url, username)
        browser.get(device_page)
        wait = settled_wait(browser, WITHIN)
        # The simulator's readings arrive on their own (the readings region is live too).
        wait.until(lambda d: shown(d, "#device-readings [data-last-reading]") != "never")

        minutes = browser.find_element(By.ID, "command-stir-minutes")
        minutes.clear()
        minutes.send_keys("5")
        browser.find_element(By.ID, "command-stir").click()  # the form posts and comes back
        stir = sent_id(browser)
        mark_page(browser)
        sent_at = time.monotonic()
        assert status_of(browser, stir) in ("queued", "delivered", "executed")

        wait.until(lambda d: status_of(d, stir) == "executed")
        took = time.monotonic() - sent_at
        row = shown(browser, f"#command-{stir}")
        assert "Stir 5 minutes" in row and "Nora Aquino" in row and "Stirring for 5 minutes" in row
        assert same_page(browser), "the page was reloaded"
        assert any(f"obeys #{stir} stir 5" in line for line in sim.lines), sim.lines
        print(f"stir 5 shown executed {took:.1f} s after the send")  # noqa: T201 - the figure

        # generator stop asks first: declining sends nothing.
        browser.find_element(By.ID, "command-generator-stop").click()
        assert "Stop the generator of Digester Loop?" in answer_confirm(browser, yes=False, timeout=5)
        time.sleep(0.5)
        assert same_page(browser) and "generator" not in shown(browser, "#command-history").lower()

        browser.find_element(By.ID, "command-generator-stop").click()
        answer_confirm(browser, timeout=5)
        stop = sent_id(browser)
        assert stop != stir
        mark_page(browser)
        wait.until(lambda d: status_of(d, stop) == "executed")
        # The stopped generator reports nothing: 0 V and 0 A in the next reading.
        wait.until(lambda d: shown(d, "#reading-voltage_v [data-value]") in ("0", "0.0"))
        assert shown(browser, "#reading-current_a [data-value]") in ("0", "0.0")
        assert "Generator stopped" in shown(browser, f"#command-{stop}") and same_page(browser)
    assert sim.error is None, sim.error


def test_without_javascript_the_form_posts_and_refresh_shows_the_new_status(
    browser_nojs, live_server, live_app, in_app
):
    driver = browser_nojs
    username, machine_id = operator_and_machine(in_app, "Digester Plain")
    with Simulator(live_app, live_server.url) as sim:
        sign_in(driver, live_server.url, username)
        driver.get(f"{live_server.url}/sibol-machines/machines/{machine_id}/device")
        driver.find_element(By.ID, "command-stir").click()  # 5 minutes is the form's default
        stir = sent_id(driver)
        assert status_of(driver, stir) in ("queued", "delivered", "executed")

        # Nothing changes by itself without JavaScript; the history's Refresh link reloads it.
        deadline = time.monotonic() + WITHIN
        while status_of(driver, stir) != "executed":
            assert time.monotonic() < deadline, f"still {status_of(driver, stir)} after {WITHIN} s"
            time.sleep(1)
            old_page = driver.find_element(By.TAG_NAME, "html")
            driver.find_element(By.CSS_SELECTOR, "#command-history .live-refresh").click()
            settled_wait(driver).until(EC.staleness_of(old_page))  # a new page, not a scroll
        assert "Stirring for 5 minutes" in shown(driver, f"#command-{stir}")
        assert driver.current_url.endswith(f"/sibol-machines/machines/{machine_id}/device")

        # generator stop asks on a page of its own, then goes.
        driver.find_element(By.ID, "command-generator-stop").click()
        title = settled_wait(driver).until(EC.presence_of_element_located((By.ID, "confirm-title")))
        assert title.text == "Generator stop on Digester Plain?"
        driver.find_element(By.ID, "confirm-yes").click()
        stop = sent_id(driver)
        assert status_of(driver, stop) in ("queued", "delivered", "executed")
    assert sim.error is None, sim.error
