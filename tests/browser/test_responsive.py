"""The console on a 390x844 phone and a 1366x768 laptop, signed in as each of the five roles.

One driver per role walks every page it can reach at both widths: the pages its top bar links
to, their tabs, and the pages those link to (one of each kind: an alert, a machine's device page,
a barangay, the monthly report...). The document never scrolls sideways, the top bar stays under
64 px (a Menu button on phones), on phones every table reads as cards whose every visible cell
carries its column's name, on a laptop every table's last column is in view, and axe finds no
serious or critical violation. Screenshots go to tests/browser/screenshots/ (git-ignored) for a
person to look at."""

from __future__ import annotations

import random
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from sibol import seed
from sibol.devices.keys import issue_key
from sibol.extensions import db
from sibol.models import MemberCollection, RoleId
from sibol.telemetry.simulate import DigesterState, reading_at
from sibol.telemetry.simulator import post_reading
from tests.factories import make_account, make_machine
from tests.factories_household import make_member, make_reward
from tests.support.axe import axe_violations, describe
from tests.support.browser import set_viewport, sign_in
from tests.support.layout import measure

SHOTS = Path(__file__).parent / "screenshots"
WIDTHS = ((390, 844), (1366, 768))
ROLES = (RoleId.ADMIN, RoleId.STAFF, RoleId.OPERATOR, RoleId.HOUSEHOLD, RoleId.CITY_ADMIN)
TABS = {
    "/admin": ["", "?tab=approval"],
    "/sibol-machines": ["", "?tab=machines", "?tab=waste-container", "?tab=process-panels", "?tab=analytics"],
    "/household": ["", "?tab=leaderboard", "?tab=rewards", "?tab=claimed", "?tab=points"],
    "/maintenance": ["?tab=request", "?tab=pending", "?tab=complete"],
}
# Pages a visited page links to that the walk opens too, the first of each kind it meets.
FOLLOW = [
    re.compile(p)
    for p in (
        r"/sibol-machines/alerts",
        r"/sibol-machines/alerts/\d+",
        r"/sibol-machines/machines/\d+/device",
        r"/household/my",
        r"/household/redeem",
        r"/household/collection-day",
        r"/household/members/\d+/account",
        r"/reports/monthly",
        r"/reminders",
        r"/public-page",
        r"/admin/areas",
        r"/admin/accounts/new",
        r"/admin/accounts/\d+/edit",
        r"/city",
        r"/city/barangays",
        r"/city/barangays/\d+",
        r"/city/barangay-filter/choose",
        r"/city/public",
        r"/b/[\w-]+",
    )
]

LINKS = """
return [...document.querySelectorAll('a[href]')]
  .map(a => new URL(a.href, location.href))
  .filter(u => u.origin === location.origin)
  .map(u => u.pathname);
"""


def top_pages(browser) -> list[str]:
    """Every page the role's top bar links to (the modules, the bell, the profile), with tabs."""
    links = browser.find_elements(By.CSS_SELECTOR, ".topbar__nav a, .topbar__bell, a.topbar__user")
    paths = [re.sub(r"^https?://[^/]+", "", a.get_attribute("href")) for a in links]
    return [path + tab for path in paths for tab in TABS.get(path, [""])]


def follow_links(browser, pages: list[str]) -> None:
    """Adds to `pages` the links of the current page that match a FOLLOW kind not yet walked."""
    kinds = {n for page in pages for n, p in enumerate(FOLLOW) if p.fullmatch(page.split("?")[0])}
    for path in browser.execute_script(LINKS):
        kind = next((n for n, p in enumerate(FOLLOW) if p.fullmatch(path)), None)
        if kind is not None and kind not in kinds:
            kinds.add(kind)
            pages.append(path)


def loaded(browser) -> None:
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    # Islands that load rows (the Machines tab) finish before measuring.
    WebDriverWait(browser, 10).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "[aria-busy=true]"))


def fill_the_tables(base_url: str, in_app, role: RoleId) -> str:
    """The spec's sample rows, a machine with readings and an open alert, a resident with
    collections and a claim: every table has rows to measure. Returns the username."""
    username = f"fit.{role.name.lower()}"
    with in_app():
        seed.sample_data()
        account = make_account(role=role, username=username, first_name="Fit")
        machine = make_machine("Fit Digester")
        key = issue_key(machine.id, actor_id=None)
        if role == RoleId.HOUSEHOLD:
            member = make_member("Fit Household", points=1250)
            member.account_id = account.id
            for day, grams in ((date(2026, 11, 12), 15_000), (date(2026, 11, 26), 4_500)):
                db.session.add(
                    MemberCollection(
                        member_id=member.id, collected_on=day, waste_g=grams, points=grams // 100
                    )
                )
            db.session.commit()
            make_reward("Eco bag", points=100)
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    reading = reading_at(DigesterState(rng=random.Random(5)), now)
    with requests.Session() as http:
        post_reading(http, base_url, key, reading, now - timedelta(minutes=2))
        post_reading(http, base_url, key, {**reading, "ph": 5.2}, now - timedelta(minutes=1))
    return username


@pytest.mark.parametrize("role", ROLES, ids=lambda r: r.name.lower())
def test_every_page_fits_a_phone_and_a_laptop(live_server, browser, in_app, role):
    username = fill_the_tables(live_server.url, in_app, role)
    SHOTS.mkdir(exist_ok=True)
    browser.set_script_timeout(30)
    sign_in(browser, live_server.url, username)
    pages = top_pages(browser)
    assert pages, "the top bar links nowhere"
    problems: list[str] = []
    for width, height in WIDTHS:
        set_viewport(browser, width, height)
        measured: set[str] = set()
        for path in pages:  # the first width's walk adds the pages it finds linked
            browser.get(live_server.url + path)
            loaded(browser)
            if browser.current_url in measured:
                continue  # sent on to a page already measured (a resident's Household tabs)
            measured.add(browser.current_url)
            if width == WIDTHS[0][0]:
                follow_links(browser, pages)
            where = f"{width}px {path}"
            problems += measure(browser, width, where)
            found = axe_violations(browser)
            if found:
                problems.append(f"{where}: axe {describe(found)}")
            slug = re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-")
            browser.save_screenshot(str(SHOTS / f"{role.name.lower()}-{width}-{slug}.png"))
        if width < 600:
            menu_opens_on_a_phone(browser, live_server.url)
    problems = list(dict.fromkeys(problems))  # a page's tables alike say it once
    assert not problems, f"{len(pages)} pages walked:\n" + "\n".join(problems)


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
