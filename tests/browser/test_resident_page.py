"""A resident's own page on a phone and a laptop: the history as one short line per collection
(in English and Filipino), the balance as the page's biggest number, tables as labelled cards."""

from __future__ import annotations

from datetime import date

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from sibol.extensions import db
from sibol.models import MemberCollection, RoleId
from tests.factories import make_account
from tests.factories_household import make_member, make_reward
from tests.support.browser import set_viewport, sign_in

# The balance's font size, and the largest of every other visible text on the page.
SIZES = """
const balance = document.getElementById('points-balance');
const size = el => parseFloat(getComputedStyle(el).fontSize);
const texts = [...document.querySelectorAll('body *')].filter(el =>
  !balance.contains(el) && el.getClientRects().length > 0 &&
  [...el.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim()));
return [size(balance), Math.max(...texts.map(size))];
"""
LABEL = "return getComputedStyle(arguments[0], '::before').content"


def history(browser) -> list[str]:
    return [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#my-collections li")]


def test_history_lines_big_balance_and_labelled_cards(live_server, browser, in_app):
    with in_app():
        home = make_account(role=RoleId.HOUSEHOLD, username="lines.home", first_name="Lina")
        member = make_member("Lina Cruz", points=1250)
        member.account_id = home.id
        for day, grams, points in ((date(2026, 11, 12), 4_500, 45), (date(2026, 11, 26), 15_000, 150)):
            db.session.add(
                MemberCollection(member_id=member.id, collected_on=day, waste_g=grams, points=points)
            )
        db.session.commit()
        make_reward("Eco bag", points=100)
    sign_in(browser, live_server.url, "lines.home")
    for width, height in ((390, 844), (1366, 768)):
        set_viewport(browser, width, height)
        browser.get(f"{live_server.url}/household/my")
        assert history(browser) == ["26 Nov · 15 kg · +150 points", "12 Nov · 4.5 kg · +45 points"]
        balance, others = browser.execute_script(SIZES)
        assert browser.find_element(By.ID, "points-balance").text == "1,250"
        assert balance > others, (
            f"{width}px: the balance ({balance} px) is not the biggest text ({others} px)"
        )
        reward = browser.find_element(By.CSS_SELECTOR, "#affordable-rewards tbody td")
        assert reward.text == "Eco bag"
        label = browser.execute_script(LABEL, reward)
        assert label == ('"Reward"' if width < 600 else "none"), f"{width}px: the cell's label is {label}"

    browser.find_element(By.CSS_SELECTOR, '.language-switcher button[value="fil"]').click()
    WebDriverWait(browser, 10).until(
        lambda d: d.execute_script("return document.documentElement.lang") == "fil"
    )
    assert history(browser) == ["26 Nob · 15 kg · +150 puntos", "12 Nob · 4.5 kg · +45 puntos"]
