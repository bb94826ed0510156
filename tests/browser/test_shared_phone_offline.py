"""A shared phone, in headless Chromium: an entry kept with no signal belongs to the account that
typed it. When that session ends without the Sign-out button (here: the browser's cookies are
cleared) and another person signs in, the entry is never sent under the newcomer's account; their
pages list it as saved by its author, and it is sent, once, when the author signs in again. The
kept pages (residents' names) leave the phone as soon as the session is over, and are not shown
with no signal to a browser whose session has ended.

The link is cut as in the other offline tests (tests/support/offline.py)."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from sqlalchemy import select

from sibol.extensions import db
from sibol.models import HouseholdMember, MemberCollection
from tests.factories import make_account
from tests.factories_household import make_member
from tests.support.browser import settled_wait, sign_in
from tests.support.offline import cached_pages, offline, stored_entries

PAGE = "/household/collection-day"
QUEUE = (By.CSS_SELECTOR, "[data-offline-queue]")


def open_with_worker(browser, link) -> None:
    wait = settled_wait(browser, 20)
    browser.get(link.url + PAGE)
    wait.until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    browser.get(link.url + PAGE)  # now through the worker, which keeps the page
    wait.until(lambda d: cached_pages(d) >= 1)


def credits(in_app, member_id: int) -> tuple[int, list[int | None]]:
    """The member's points and who recorded each of its credits."""
    with in_app():
        db.session.expire_all()
        points = db.session.get(HouseholdMember, member_id).points
        by = db.session.scalars(
            select(MemberCollection.recorded_by_id).where(MemberCollection.member_id == member_id)
        ).all()
        return points, list(by)


def test_an_entry_waits_for_its_author_and_an_ended_session_sees_no_kept_page(link, browser, in_app):
    with in_app():
        ana = make_account(first_name="Ana", last_name="Cruz", username="ana")
        ben = make_account(first_name="Ben", last_name="Diaz", username="ben")
        ana_id, ben_id = ana.id, ben.id
        rosa = make_member("Rosa Villanueva", points=0).id
    wait = settled_wait(browser, 20)

    # Ana keeps an entry with no signal.
    sign_in(browser, link.url, "ana")
    open_with_worker(browser, link)
    offline(browser, True)
    link.down()
    browser.refresh()
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Collection day")
    browser.find_element(By.NAME, f"kg-{rosa}").send_keys("2")
    browser.find_element(By.CSS_SELECTOR, "form.collection-day button[type=submit]").click()
    wait.until(lambda d: "1 waiting to send" in d.find_element(*QUEUE).text)

    # Her session ends without the Sign-out button: the kept page is not shown with no signal.
    browser.delete_all_cookies()
    browser.get(link.url + PAGE)
    wait.until(lambda d: d.execute_script("return document.readyState") == "complete")
    assert "Rosa Villanueva" not in browser.page_source
    assert not [h for h in browser.find_elements(By.TAG_NAME, "h1") if h.text == "Collection day"]

    # Signal again: the kept page is already gone (the sign-in page itself drops nothing).
    link.up()
    offline(browser, False)
    browser.get(link.url + "/login")
    assert cached_pages(browser) == 0
    assert stored_entries(browser) == 1  # Ana's entry stays on the phone

    # Ben signs in on the same phone: Ana's entry is listed, never sent.
    sign_in(browser, link.url, "ben")
    browser.get(link.url + PAGE)
    wait.until(
        lambda d: (
            "Saved by Ana Cruz on this phone: it is sent once Ana Cruz signs in again."
            in d.find_element(*QUEUE).text
        )
    )
    assert "0 waiting to send" in browser.find_element(*QUEUE).text
    assert "Rosa Villanueva: 2 kg" in browser.find_element(*QUEUE).text
    browser.refresh()  # a second visit: still not sent
    wait.until(lambda d: "Saved by Ana Cruz" in d.find_element(*QUEUE).text)
    assert stored_entries(browser) == 1
    assert credits(in_app, rosa) == (0, [])
    assert link.credits_seen == 0

    # Ben signs out with the button: his (no) entries go, Ana's stays.
    browser.find_element(By.CSS_SELECTOR, "form[data-logout] button[type=submit]").click()
    wait.until(lambda d: "/login" in d.current_url)
    assert stored_entries(browser) == 1

    # Ana signs in again: her entry is sent, once, under her account.
    sign_in(browser, link.url, "ana")
    browser.get(link.url + PAGE)
    wait.until(lambda d: stored_entries(d) == 0)
    assert credits(in_app, rosa) == (60, [ana_id])
    browser.refresh()
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Collection day")
    assert credits(in_app, rosa) == (60, [ana_id])
    assert ben_id not in credits(in_app, rosa)[1]


def test_another_account_signing_in_drops_the_kept_pages(link, browser, in_app):
    with in_app():
        make_account(username="ana")
        make_account(username="ben")
        make_member("Rosa Villanueva", points=0)
    sign_in(browser, link.url, "ana")
    open_with_worker(browser, link)
    browser.delete_all_cookies()  # the session ends; nothing else is visited
    sign_in(browser, link.url, "ben")  # the sign-in page, then Ben's home page
    settled_wait(browser, 20).until(lambda d: cached_pages(d) == 0)
