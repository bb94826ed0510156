"""Issue 18: the console on a 390x844 phone and a 1366x768 laptop, signed in as each role.

One driver per role walks every page it can open at both widths: the document never scrolls
sideways, the top bar stays under 64 px (a Menu button on phones), every table's last column is
visible (cards on phones), and axe finds no serious or critical violation. Screenshots go to
tests/browser/screenshots/ (git-ignored) for a person to look at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from sibol import seed
from sibol.models import RoleId
from tests.browser.test_accessibility import axe_violations, describe
from tests.factories import make_account
from tests.support.browser import sign_in

SHOTS = Path(__file__).parent / "screenshots"
WIDTHS = ((390, 844), (1366, 768))
TOPBAR_MAX = 64
TABS = {
    "/admin": ["", "?tab=approval"],
    "/sibol-machines": ["", "?tab=machines", "?tab=waste-container"],
    "/household": ["", "?tab=leaderboard", "?tab=rewards", "?tab=claimed", "?tab=points"],
}

MEASURE = """
const width = arguments[0];
const bar = document.querySelector('.topbar');
const tables = [...document.querySelectorAll('.table-wrap > table')].map(t => {
  const wrap = t.parentElement.getBoundingClientRect();
  const right = Math.min(wrap.right, innerWidth);
  const th = [...t.querySelectorAll('thead th')].pop();
  const rows = [...t.querySelectorAll('tbody tr:not(.table__empty)')];
  const lastCells = rows.map(r => [...r.children].pop()).filter(Boolean);
  return {
    id: t.id || t.className,
    header: th ? th.getBoundingClientRect().right - right : null,
    cells: lastCells.map(c => { const r = c.getBoundingClientRect(); return r.width > 0 ? r.right - innerWidth : 9999; }),
  };
});
return {scroll: document.documentElement.scrollWidth, inner: innerWidth, width,
        bar: bar ? bar.getBoundingClientRect().height : 0, tables};
"""


def set_viewport(browser, width: int, height: int) -> None:
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def pages_of(browser) -> list[str]:
    """Every page the role's top bar links to, with each page's tabs."""
    links = browser.find_elements(By.CSS_SELECTOR, ".topbar__nav a")
    paths = [re.sub(r"^https?://[^/]+", "", a.get_attribute("href")) for a in links]
    return [path + tab for path in paths for tab in TABS.get(path, [""])]


def loaded(browser) -> None:
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    # Islands that load rows (the Machines tab) finish before measuring.
    WebDriverWait(browser, 10).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "[aria-busy=true]"))


@pytest.mark.parametrize(
    "role", [RoleId.ADMIN, RoleId.STAFF, RoleId.OPERATOR, RoleId.HOUSEHOLD], ids=lambda r: r.name.lower()
)
def test_every_page_fits_a_phone_and_a_laptop(live_server, browser, in_app, role):
    with in_app():
        seed.sample_data()
        make_account(role=role, username=f"fit.{role.name.lower()}", first_name="Fit")
    SHOTS.mkdir(exist_ok=True)
    browser.set_script_timeout(30)
    sign_in(browser, live_server.url, f"fit.{role.name.lower()}")
    pages = pages_of(browser)
    assert pages, "the top bar links nowhere"
    problems: list[str] = []
    for width, height in WIDTHS:
        set_viewport(browser, width, height)
        for path in pages:
            browser.get(live_server.url + path)
            loaded(browser)
            m = browser.execute_script(MEASURE, width)
            where = f"{width}px {path}"
            if m["scroll"] > width or m["scroll"] > m["inner"]:
                problems.append(f"{where}: document {m['scroll']} px wide")
            if m["bar"] > TOPBAR_MAX:
                problems.append(f"{where}: top bar {m['bar']} px high")
            for table in m["tables"]:
                if width > 600 and table["header"] is not None and table["header"] > 1:
                    problems.append(f"{where}: {table['id']} last column cut by {table['header']:.0f} px")
                cut = [c for c in table["cells"] if c > 1]
                if cut:
                    problems.append(f"{where}: {table['id']} last cells off-screen in {len(cut)} rows")
            found = axe_violations(browser)
            if found:
                problems.append(f"{where}: axe {describe(found)}")
            slug = re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-")
            browser.save_screenshot(str(SHOTS / f"{role.name.lower()}-{width}-{slug}.png"))
        if width < 600:
            menu_opens_on_a_phone(browser, live_server.url)
    assert not problems, "\n".join(problems)


def menu_opens_on_a_phone(browser, base: str) -> None:
    browser.get(base + "/dashboard")
    first_link = browser.find_element(By.CSS_SELECTOR, ".topbar__nav a")
    assert not first_link.is_displayed(), "on a phone the links wait behind the Menu button"
    browser.find_element(By.CSS_SELECTOR, ".topbar__menu-btn").click()
    assert first_link.is_displayed()
    assert browser.find_element(By.CSS_SELECTOR, ".topbar__logout button").is_displayed()
