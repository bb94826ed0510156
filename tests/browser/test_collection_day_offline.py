"""Collection day with no signal, in headless Chromium: the page opens from the service worker's
cache, entries wait on the phone and are credited exactly once when the link returns, a refused
entry shows why, and signing out empties the cache and IndexedDB.

The link is cut twice over: the page is set offline through the DevTools protocol
(Network.emulateNetworkConditions), and the server stops listening, so the service worker's own
fetches fail as they would on a phone with no signal."""

from __future__ import annotations

import socket
import threading

import pytest
from selenium.webdriver.common.by import By
from sqlalchemy import delete, func, select
from werkzeug.serving import make_server

from sibol.extensions import db
from sibol.models import HouseholdMember, MemberCollection
from tests.factories import make_account
from tests.factories_household import make_member
from tests.support.browser import answer_confirm, settled_wait, sign_in

PAGE = "/household/collection-day"


class Link:
    """The app on a WSGI server that can go down and come back on the same port."""

    def __init__(self, app):
        self.app = app
        self.credits_seen = 0
        self.is_down = False
        self.lose_answer_of: int | None = None  # the n-th credit is stored, its answer lost
        self.server = make_server("127.0.0.1", 0, self.wsgi, threaded=True)
        self.port = self.server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        self._start()

    def wsgi(self, environ, start_response):
        if self.is_down:  # a kept-alive connection outlives the listening socket: drop it too
            environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
            return []
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/waste"):
            self.credits_seen += 1
            if self.credits_seen == self.lose_answer_of:
                body = b"".join(self.app(environ, lambda *a, **k: None))  # stored...
                del body
                environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)  # ...and the answer lost
                return []
        return self.app(environ, start_response)

    def _start(self):
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def down(self):
        self.is_down = True
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def up(self):
        self.is_down = False
        self.server = make_server("127.0.0.1", self.port, self.wsgi, threaded=True)
        self._start()


@pytest.fixture
def link(live_app):
    server = Link(live_app)
    yield server
    server.down()
    with live_app.app_context():
        db.session.remove()


def offline(browser, is_offline: bool) -> None:
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": is_offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def cached_pages(browser) -> int:
    return browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        caches.keys().then(async (names) => {
          let n = 0;
          for (const name of names) if (name.startsWith('sibol-pages')) n += (await (await caches.open(name)).keys()).length;
          done(n);
        });"""
    )


def stored_entries(browser) -> int:
    return browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        const open = indexedDB.open('sibol-offline', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('entries', {keyPath: 'key'});
        open.onsuccess = () => {
          const req = open.result.transaction('entries').objectStore('entries').count();
          req.onsuccess = () => { open.result.close(); done(req.result); };
        };
        open.onerror = () => done(-1);"""
    )


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


def test_the_worker_sends_the_queue_on_the_sync_event_with_no_page_open(link, browser, in_app):
    """Background Sync alone: the page is gone (its online-event fallback with it) when the link
    returns; the sync event (fired through the DevTools protocol, as Chromium would) sends the
    queue from the service worker, each entry once."""
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


def test_without_javascript_collection_day_is_one_plain_form(live_server, browser_nojs, in_app):
    with in_app():
        username = make_account().username
        rosa = make_member("Rosa", points=0).id
        nilo = make_member("Nilo", points=0, active=False).id
    sign_in(browser_nojs, live_server.url, username)
    browser_nojs.get(live_server.url + PAGE)
    assert browser_nojs.find_element(By.NAME, f"kg-{nilo}").get_attribute("disabled") is not None
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
