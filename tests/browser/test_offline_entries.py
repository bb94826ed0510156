"""Record waste on the Household page and Add Remark on the Maintenance page with no signal, in
headless Chromium: after one visit online each page opens from the service worker's cache, the
entry waits on the phone ("1 waiting to send") and reaches the server exactly once when the link
returns, also when the answer to its first send is lost.

The link is cut as in the collection day tests (tests/support/offline.py): DevTools offline
(Network.emulateNetworkConditions) and the server stopped."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import HouseholdMember, MaintenanceEvent, MaintenanceRequest, MemberCollection
from tests.factories import make_account
from tests.factories_household import make_member
from tests.factories_maintenance import make_request
from tests.support.browser import settled_wait, sign_in
from tests.support.offline import cached_pages, offline, stored_entries

LEADERBOARD = "/household?tab=leaderboard"
QUEUE = (By.CSS_SELECTOR, "[data-offline-queue]")


def open_with_worker(browser, url: str, pages: int = 1) -> None:
    """Opens the page until the service worker controls it and keeps `pages` answers."""
    wait = settled_wait(browser, 20)
    browser.get(url)
    wait.until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    browser.get(url)  # now through the worker, which keeps the page
    wait.until(lambda d: cached_pages(d) >= pages)


def go_offline(browser, link, heading: str):
    offline(browser, True)
    link.down()
    browser.refresh()
    wait = settled_wait(browser, 20)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == heading)
    return wait


def come_back(browser, link, wait, lose_first_answer: bool) -> None:
    """The link returns; with lose_first_answer the first send is stored but its answer lost, so
    the entry stays on the phone and is sent again with its key (a later visit sends it)."""
    if lose_first_answer:
        link.lose_answer_of = link.credits_seen + 1
    link.up()
    offline(browser, False)
    wait.until(lambda d: link.credits_seen >= 1)
    browser.refresh()
    wait.until(lambda d: stored_entries(d) == 0)


def test_record_waste_without_signal_is_kept_then_credited_exactly_once(link, browser, in_app):
    with in_app():
        username = make_account().username
        rosa = make_member("Rosa", points=0).id
        ana = make_member("Ana", points=10).id
    sign_in(browser, link.url, username)
    open_with_worker(browser, link.url + LEADERBOARD)
    wait = go_offline(browser, link, "Household")

    for member_id, kg in ((rosa, "2"), (ana, "0.5")):
        # The link would load ?record= from the server: with no signal the dialog opens in place.
        browser.find_element(By.CSS_SELECTOR, f'tr[data-member-id="{member_id}"] a[href*="record="]').click()
        dialog = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "dialog#record-waste[open]"))
        field = dialog.find_element(By.NAME, "wasteKg")
        field.send_keys(kg)
        dialog.find_element(By.CSS_SELECTOR, "button[type=submit].btn--primary").click()
        wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog#record-waste[open]"))
    wait.until(lambda d: "2 waiting to send" in d.find_element(*QUEUE).text)
    listed = browser.find_element(*QUEUE).text
    assert "Rosa: 2 kg" in listed and "Ana: 0.5 kg" in listed
    assert stored_entries(browser) == 2

    come_back(browser, link, wait, lose_first_answer=True)
    with in_app():
        db.session.expire_all()
        assert [db.session.get(HouseholdMember, i).points for i in (rosa, ana)] == [60, 25]
        assert db.session.scalar(select(func.count(MemberCollection.id))) == 2
    assert link.credits_seen >= 3  # the lost answer's entry was sent again, and replayed


def test_a_refused_record_waste_entry_shows_why(link, browser, in_app):
    with in_app():
        username = make_account().username
        nilo = make_member("Nilo", points=0).id
    sign_in(browser, link.url, username)
    open_with_worker(browser, link.url + LEADERBOARD)
    wait = go_offline(browser, link, "Household")
    browser.find_element(By.CSS_SELECTOR, f'tr[data-member-id="{nilo}"] a[href*="record="]').click()
    dialog = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "dialog#record-waste[open]"))
    dialog.find_element(By.NAME, "wasteKg").send_keys("1")
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit].btn--primary").click()
    wait.until(lambda d: stored_entries(d) == 1)
    with in_app():  # the household leaves the programme while the phone has no signal
        db.session.get(HouseholdMember, nilo).is_active = False
        db.session.commit()
    link.up()
    offline(browser, False)
    wait.until(lambda d: "Nilo is inactive and cannot be credited." in d.find_element(*QUEUE).text)
    assert "0 waiting to send" in browser.find_element(*QUEUE).text
    with in_app():
        db.session.expire_all()
        assert db.session.get(HouseholdMember, nilo).points == 0


def test_a_remark_typed_without_signal_is_kept_then_saved_exactly_once(link, browser, in_app):
    with in_app():
        username = make_account().username
        request_id = make_request(issue="Shredder jammed").id
    sign_in(browser, link.url, username)
    # The page and the listed request's detail dialog are kept.
    open_with_worker(browser, link.url + "/maintenance?tab=pending", pages=2)
    wait = go_offline(browser, link, "Maintenance")

    browser.find_element(By.CSS_SELECTOR, "tr[data-dialog-url]").click()
    dialog = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "dialog#mnt-detail-dialog[open]"))
    dialog.find_element(By.NAME, "remarks").send_keys("Blade replaced, needs oil")
    dialog.find_element(By.ID, "mnt-add-remark").click()
    wait.until(lambda d: "1 waiting to send" in d.find_element(*QUEUE).text)
    assert "Blade replaced, needs oil" in browser.find_element(*QUEUE).text

    come_back(browser, link, wait, lose_first_answer=True)
    with in_app():
        db.session.expire_all()
        assert db.session.get(MaintenanceRequest, request_id).remarks == "Blade replaced, needs oil"
        remarks = db.session.scalars(
            select(MaintenanceEvent.note).where(
                MaintenanceEvent.request_id == request_id, MaintenanceEvent.kind == "remark"
            )
        ).all()
        assert remarks == ["Blade replaced, needs oil"]
