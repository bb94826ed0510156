"""The console on a 390x844 phone and a 1366x768 laptop, signed in as each role.

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
from tests.factories import make_account
from tests.support.axe import axe_violations, describe
from tests.support.browser import TOPBAR_MAX, set_viewport, sign_in

SHOTS = Path(__file__).parent / "screenshots"
WIDTHS = ((390, 844), (1366, 768))
TABS = {
    "/admin": ["", "?tab=approval"],
    "/sibol-machines": ["", "?tab=machines", "?tab=waste-container", "?tab=process-panels", "?tab=analytics"],
    "/household": ["", "?tab=leaderboard", "?tab=rewards", "?tab=claimed", "?tab=points"],
}
# Pages a module's screens link to (and that the role may open), beside its tabs.
LINKED = {
    "/sibol-machines": ["/sibol-machines/alerts"],
    "/household": ["/household/redeem"],
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


def pages_of(browser, role: RoleId) -> list[str]:
    """Every page the role's top bar links to (the modules, the bell, the profile), with each
    page's tabs and the pages its screens link to."""
    links = browser.find_elements(By.CSS_SELECTOR, ".topbar__nav a, .topbar__bell, a.topbar__user")
    paths = [re.sub(r"^https?://[^/]+", "", a.get_attribute("href")) for a in links]
    pages = [path + tab for path in paths for tab in TABS.get(path, [""])]
    for path in paths:
        pages += [
            p for p in LINKED.get(path, []) if not (role == RoleId.HOUSEHOLD and p == "/household/redeem")
        ]
    return pages


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
    pages = pages_of(browser, role)
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


INSIDE = "return arguments[0].contains(document.activeElement)"
OPEN_DIALOG = "dialog.modal[open]"


def tab_stays_inside(browser, dialog, presses: int = 25) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    for n in range(presses):
        keys = (
            ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT)
            if n % 5 == 4
            else ActionChains(browser).send_keys(Keys.TAB)
        )
        keys.perform()
        assert browser.execute_script(INSIDE, dialog), f"focus left the dialog after {n + 1} presses"


def test_dialogs_keep_focus_inside_and_return_it(live_server, browser, in_app):
    """The Create User dialog (React) and the Request Maintenance dialog (server markup), at both widths."""
    from selenium.webdriver.common.keys import Keys

    with in_app():
        make_account(role=RoleId.ADMIN, username="focus.admin")
    sign_in(browser, live_server.url, "focus.admin")
    for width, height in WIDTHS:
        set_viewport(browser, width, height)
        for path, opener_css in (
            ("/admin", "[data-admin-create]"),
            ("/maintenance?tab=request", "#mnt-new-button"),
        ):
            browser.get(live_server.url + path)
            loaded(browser)
            opener = browser.find_element(By.CSS_SELECTOR, opener_css)
            browser.execute_script("arguments[0].focus()", opener)
            opener.send_keys(Keys.ENTER)
            dialog = WebDriverWait(browser, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, OPEN_DIALOG))
            WebDriverWait(browser, 5).until(lambda d, dialog=dialog: d.execute_script(INSIDE, dialog))
            box = browser.execute_script(
                "const r = arguments[0].getBoundingClientRect(); return [r.left, r.right, innerWidth]", dialog
            )
            assert box[0] >= 0 and box[1] <= box[2], f"{width}px {path}: dialog wider than the screen {box}"
            tab_stays_inside(browser, dialog)
            browser.switch_to.active_element.send_keys(Keys.ESCAPE)
            WebDriverWait(browser, 5).until(lambda d: not d.find_elements(By.CSS_SELECTOR, OPEN_DIALOG))
            assert browser.switch_to.active_element == opener, f"{width}px {path}: focus did not return"


def test_menu_opens_without_javascript(live_server, browser_nojs, in_app):
    with in_app():
        make_account(role=RoleId.HOUSEHOLD, username="nojs.household")
    sign_in(browser_nojs, live_server.url, "nojs.household")
    set_viewport(browser_nojs, 390, 844)
    menu_opens_on_a_phone(browser_nojs, live_server.url)
    links = [a.text for a in browser_nojs.find_elements(By.CSS_SELECTOR, ".topbar__nav a")]
    assert links == ["Dashboard", "Household", "Chat Support"]
