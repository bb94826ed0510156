"""Collection day with no signal, in headless Chromium: the page opens from the service worker's
cache, entries wait on the phone and are credited exactly once when the link returns, a refused
entry shows why, and signing out empties the cache and IndexedDB.

The link is cut twice over: the page is set offline through the DevTools protocol
(Network.emulateNetworkConditions), and the server stops listening, so the service worker's own
fetches fail as they would on a phone with no signal."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from sqlalchemy import delete, func, select

from sibol.extensions import db
from sibol.i18n.localtime import today
from sibol.models import HouseholdMember, MemberCollection
from tests.factories import make_account
from tests.factories_household import make_member, make_schedule
from tests.support.browser import answer_confirm, settled_wait, sign_in
from tests.support.offline import cached_pages, offline, stored_entries

PAGE = "/household/collection-day"


def open_with_worker(browser, link) -> None:
    """Opens the page until the service worker controls it and keeps a copy of it."""
    wait = settled_wait(browser, 20)
    browser.get(link.url + PAGE)
    wait.until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    browser.get(link.url + PAGE)  # now through the worker, which keeps the page
    wait.until(lambda d: cached_pages(d) >= 1)


def type_kg(browser, member_id: int, kg: str) -> None:
    field = browser.find_element(By.NAME, f"kg-{member_id}")
    field.clear()
    field.send_keys(kg)


def credits_of(in_app, ids) -> tuple[list[int], int]:
    with in_app():
        db.session.expire_all()
        points = [db.session.get(HouseholdMember, i).points for i in ids]
        rows = db.session.scalar(select(func.count(MemberCollection.id)))
        return points, rows


def test_offline_entries_reach_the_server_exactly_once(link, browser, in_app):
    with in_app():
        username = make_account().username
        ids = [make_member(f"Household {n}", points=0).id for n in range(5)]
    sign_in(browser, link.url, username)
    open_with_worker(browser, link)

    offline(browser, True)
    link.down()
    browser.refresh()
    wait = settled_wait(browser, 20)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Collection day")
    for member_id in ids:
        type_kg(browser, member_id, "1")
    browser.find_element(By.CSS_SELECTOR, "form.collection-day button[type=submit]").click()
    wait.until(lambda d: "5 waiting to send" in d.find_element(By.CSS_SELECTOR, "[data-offline-queue]").text)
    assert stored_entries(browser) == 5
    assert credits_of(in_app, ids) == ([0] * 5, 0)

    link.up()
    offline(browser, False)
    wait.until(lambda d: stored_entries(d) == 0)
    assert credits_of(in_app, ids) == ([30] * 5, 5)
    # A visit after that sends nothing again.
    browser.refresh()
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Collection day")
    assert credits_of(in_app, ids) == ([30] * 5, 5)


def test_a_link_cut_in_the_middle_of_the_sync_still_credits_each_entry_once(link, browser, in_app):
    """The third credit is stored, then its answer is lost (the connection drops): that entry
    stays on the phone and is sent again with the same key; the server replays its answer. The
    page and the service worker may both send: the key keeps it to one credit each."""
    with in_app():
        username = make_account().username
        ids = [make_member(f"Household {n}", points=0).id for n in range(5)]
    sign_in(browser, link.url, username)
    open_with_worker(browser, link)
    offline(browser, True)
    link.down()
    for member_id in ids:
        type_kg(browser, member_id, "1")
    browser.find_element(By.CSS_SELECTOR, "form.collection-day button[type=submit]").click()
    wait = settled_wait(browser, 20)
    wait.until(lambda d: stored_entries(d) == 5)

    link.lose_answer_of = 3  # whichever sender, page or worker, sends the third credit
    link.up()
    offline(browser, False)
    wait.until(lambda d: link.credits_seen >= 3)
    # The page's sync stops at the lost answer; the service worker's Background Sync (a second
    # sender) may carry on. The next visit sends whatever is left.
    browser.refresh()
    wait.until(lambda d: stored_entries(d) == 0)
    assert credits_of(in_app, ids) == ([30] * 5, 5)
    # The third entry stayed on the phone until a resend with its key got the stored answer.
    assert link.credits_seen >= 6


def test_a_refused_entry_shows_its_reason_and_can_be_discarded(link, browser, in_app):
    with in_app():
        username = make_account().username
        rosa = make_member("Rosa", points=0).id
        gone = make_member("Gone", points=0).id
    sign_in(browser, link.url, username)
    open_with_worker(browser, link)
    offline(browser, True)
    link.down()  # the worker's Background Sync must not send before the household is removed
    type_kg(browser, rosa, "1")
    type_kg(browser, gone, "1")
    browser.find_element(By.CSS_SELECTOR, "form.collection-day button[type=submit]").click()
    wait = settled_wait(browser, 20)
    wait.until(lambda d: stored_entries(d) == 2)
    with in_app():  # the household is removed while the phone has no signal
        db.session.execute(delete(HouseholdMember).where(HouseholdMember.id == gone))
        db.session.commit()
    link.up()
    offline(browser, False)
    queue = (By.CSS_SELECTOR, "[data-offline-queue]")
    wait.until(lambda d: "Household member not found." in d.find_element(*queue).text)
    refused = browser.find_element(By.CSS_SELECTOR, ".offline-queue li.is-refused")
    assert refused.text.startswith("Gone: 1 kg")
    assert "0 waiting to send" in browser.find_element(*queue).text
    assert credits_of(in_app, [rosa])[0] == [30]
    refused.find_element(By.XPATH, ".//button[text()='Discard']").click()
    wait.until(lambda d: stored_entries(d) == 0)


def sync_tags(browser) -> list[str]:
    return browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready
          .then((r) => (r.sync ? r.sync.getTags() : ['no Background Sync']))
          .then(done, (e) => done([String(e)]));"""
    )


def test_an_entry_kept_offline_registers_a_background_sync_and_is_credited_once(link, browser, in_app):
    """Where the browser has Background Sync, keeping an entry asks the worker to send the queue
    on the 'sibol-offline-entries' sync; the page still sends on the online event. With both
    senders, each entry is credited once."""
    with in_app():
        username = make_account().username
        ids = [make_member(f"Household {n}", points=0).id for n in range(3)]
    sign_in(browser, link.url, username)
    open_with_worker(browser, link)
    offline(browser, True)
    link.down()
    for member_id in ids:
        type_kg(browser, member_id, "1")
    browser.find_element(By.CSS_SELECTOR, "form.collection-day button[type=submit]").click()
    wait = settled_wait(browser, 20)
    wait.until(lambda d: stored_entries(d) == 3)
    wait.until(lambda d: "sibol-offline-entries" in sync_tags(d))

    link.up()
    offline(browser, False)
    wait.until(lambda d: stored_entries(d) == 0)
    wait.until(lambda d: "3 waiting" not in d.find_element(By.CSS_SELECTOR, "[data-offline-queue]").text)
    assert credits_of(in_app, ids) == ([30] * 3, 3)
    browser.refresh()  # nothing is sent again
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Collection day")
    assert credits_of(in_app, ids) == ([30] * 3, 3)


def test_the_worker_sends_the_queue_on_the_sync_event_with_no_page_open(link, fresh_browser, in_app):
    """Background Sync alone: the page is gone (its online-event fallback with it) when the link
    returns; the sync event (fired through the DevTools protocol, as Chromium would) sends the
    queue from the service worker, each entry once."""
    browser = fresh_browser
    with in_app():
        username = make_account().username
        ids = [make_member(f"Household {n}", points=0).id for n in range(3)]
    sign_in(browser, link.url, username)
    open_with_worker(browser, link)
    offline(browser, True)
    link.down()
    for member_id in ids:
        type_kg(browser, member_id, "1")
    browser.find_element(By.CSS_SELECTOR, "form.collection-day button[type=submit]").click()
    wait = settled_wait(browser, 20)
    wait.until(lambda d: stored_entries(d) == 3)
    browser.get("about:blank")  # no page left to send them
    link.up()
    offline(browser, False)
    browser.execute_cdp_cmd("ServiceWorker.enable", {})
    browser.execute_cdp_cmd(
        "ServiceWorker.dispatchSyncEvent",
        # "0": the only registration in the test's fresh browser profile.
        {"origin": link.url, "registrationId": "0", "tag": "sibol-offline-entries", "lastChance": False},
    )
    wait.until(lambda d: credits_of(in_app, ids)[1] == 3)
    assert credits_of(in_app, ids) == ([30] * 3, 3)
    assert link.credits_seen == 3  # sent by the worker, once each


def test_signing_out_warns_about_unsent_entries_then_empties_the_cache_and_indexeddb(link, browser, in_app):
    with in_app():
        username = make_account().username
        rosa = make_member("Rosa", points=0).id
    sign_in(browser, link.url, username)
    open_with_worker(browser, link)
    offline(browser, True)
    link.down()  # out of reach for the worker's Background Sync too: the entry stays unsent
    type_kg(browser, rosa, "1")
    browser.find_element(By.CSS_SELECTOR, "form.collection-day button[type=submit]").click()
    wait = settled_wait(browser, 20)
    wait.until(lambda d: stored_entries(d) == 1)
    offline(browser, False)  # the phone has signal again, the server is still out of reach
    wait.until(lambda d: d.execute_script("return navigator.onLine"))
    browser.find_element(By.CSS_SELECTOR, "form[data-logout] button[type=submit]").click()
    asked = answer_confirm(browser, yes=False, timeout=20)  # the styled dialog; the worker says no
    assert "1 entries have not been sent" in asked
    assert PAGE in browser.current_url  # kept signed in
    assert stored_entries(browser) == 1
    link.up()
    browser.find_element(By.CSS_SELECTOR, "form[data-logout] button[type=submit]").click()

    def signed_out(d) -> bool:
        # The entry may have gone out meanwhile: the dialog asks only while one is unsent.
        for dialog in d.find_elements(By.ID, "confirm-dialog"):
            if dialog.is_displayed():
                dialog.find_element(By.ID, "confirm-dialog-yes").click()
        return "/login" in d.current_url

    wait.until(signed_out)
    assert cached_pages(browser) == 0
    assert stored_entries(browser) == 0


def area_headings(browser) -> list[str]:
    return [th.text for th in browser.find_elements(By.CSS_SELECTOR, "th[scope=rowgroup]")]


def test_without_javascript_collection_day_is_one_plain_form(live_server, browser_nojs, in_app):
    with in_app():
        username = make_account().username
        make_schedule(areas=("Purok Uno",), when=today())
        rosa = make_member("Rosa", points=0, area="Purok Uno").id
        nilo = make_member("Nilo", points=0, active=False).id
    sign_in(browser_nojs, live_server.url, username)
    browser_nojs.get(live_server.url + PAGE)
    assert area_headings(browser_nojs) == ["Purok Uno", "Other households"]
    assert browser_nojs.find_element(By.NAME, f"kg-{nilo}").get_attribute("disabled") is not None
    nilo_row = browser_nojs.find_element(By.CSS_SELECTOR, f'tr[data-member-id="{nilo}"]')
    assert "Inactive: cannot be credited" in nilo_row.text
    type_kg(browser_nojs, rosa, "lots")
    browser_nojs.find_element(By.CSS_SELECTOR, "form.collection-day button[type=submit]").click()
    wait = settled_wait(browser_nojs)
    wait.until(
        lambda d: (
            d.find_element(By.ID, f"kg-{rosa}-error").text == "Food waste must be a number of kilograms."
        )
    )
    type_kg(browser_nojs, rosa, "2")
    browser_nojs.find_element(By.CSS_SELECTOR, "form.collection-day button[type=submit]").click()
    wait.until(lambda d: "Saved: 1 households credited, 2 kg, 60 points." in d.page_source)
    assert credits_of(in_app, [rosa]) == ([60], 1)
