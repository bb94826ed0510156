"""Maintenance in headless Chromium: a request's whole life, and the filter dialog with its chips."""

from __future__ import annotations

import struct
import zlib

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from sibol.maintenance import seed
from tests.factories import make_account
from tests.factories_maintenance import due_in, make_operator
from tests.support.browser import answer_confirm, sign_in, wait


def tiny_png() -> bytes:
    """A real 2x2 green PNG, so the preview has something to draw."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\x1f\x7a\x4d" * 2 for _ in range(2))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def set_value(browser, element, value: str) -> None:
    """Date inputs take keys in the browser's locale order; set the ISO value directly."""
    browser.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change', {bubbles: true}));",
        element,
        value,
    )


def search(browser, text: str) -> None:
    box = browser.find_element(By.ID, "mnt-q")
    box.clear()
    box.send_keys(text)
    box.submit()
    wait(browser).until(EC.staleness_of(box))  # the results page has replaced this one


def open_row(browser, number: str):
    row = wait(browser).until(
        EC.element_to_be_clickable((By.CSS_SELECTOR, f'tr[data-request-number="{number}"] td.mnt-details'))
    )
    browser.execute_script("window.mntSamePage = true")
    row.click()  # the island fetches the detail dialog and opens it in place
    dialog = wait(browser).until(EC.visibility_of_element_located((By.ID, "mnt-detail-dialog")))
    assert browser.execute_script("return window.mntSamePage === true")  # no page load
    assert "request=" in browser.current_url  # a reload shows the same dialog
    return dialog


def test_request_renew_complete_with_an_image_and_history(live_server, browser, in_app, tmp_path):
    with in_app():
        username = make_account(first_name="Liza", last_name="Cruz").username
        make_operator(first_name="Ana", last_name="Bautista")
    image = tmp_path / "pump.png"
    image.write_bytes(tiny_png())
    sign_in(browser, live_server.url, username)

    browser.get(f"{live_server.url}/maintenance?tab=request")
    browser.find_element(By.ID, "mnt-new-button").click()
    dialog = wait(browser).until(EC.visibility_of_element_located((By.ID, "mnt-request-dialog")))
    number = dialog.find_element(By.ID, "mnt-new-number").text.lstrip("#")
    assert browser.current_url.endswith("tab=request")  # opened in place, no page load
    Select(dialog.find_element(By.ID, "mnt-assigned")).select_by_visible_text("Ana Bautista")
    dialog.find_element(By.ID, "mnt-issue").send_keys("Pump makes a grinding noise")
    Select(dialog.find_element(By.ID, "mnt-priority")).select_by_visible_text("Critical")
    set_value(browser, dialog.find_element(By.ID, "mnt-due"), due_in(4))
    dialog.find_element(By.ID, "mnt-file").send_keys(str(image))
    wait(browser).until(EC.visibility_of_element_located((By.ID, "mnt-preview")))
    assert dialog.find_element(By.ID, "mnt-preview-name").text == "pump.png"
    dialog.find_element(By.ID, "mnt-file-remove").click()  # remove, then choose again
    assert not dialog.find_element(By.ID, "mnt-preview").is_displayed()
    dialog.find_element(By.ID, "mnt-file").send_keys(str(image))
    dialog.find_element(By.ID, "mnt-assign").click()

    wait(browser).until(
        EC.text_to_be_present_in_element(
            (By.CSS_SELECTOR, ".flashes"),
            f"Maintenance request #{number} was created and assigned to Ana Bautista.",
        )
    )
    assert "tab=pending" in browser.current_url
    search(browser, number)
    detail = open_row(browser, number)
    assert "Pump makes a grinding noise" in detail.text and "pump.png" in detail.text
    assert "Critical" in detail.text and "On-going" in detail.text
    set_value(browser, detail.find_element(By.ID, "mnt-renew-due"), due_in(12))
    detail.find_element(By.ID, "mnt-remarks").send_keys("Waiting for a new bearing")
    detail.find_element(By.ID, "mnt-renew").click()
    wait(browser).until(
        EC.text_to_be_present_in_element((By.CSS_SELECTOR, ".flashes"), f"Request #{number} was renewed")
    )

    search(browser, number)
    detail = open_row(browser, number)
    assert "Waiting for a new bearing" in detail.find_element(By.ID, "mnt-detail-remarks").text
    detail.find_element(By.ID, "mnt-remarks").send_keys("Bearing replaced")
    detail.find_element(By.ID, "mnt-complete").click()
    assert answer_confirm(browser).startswith(f"Complete request #{number}?")  # Completing asks first
    wait(browser).until(
        EC.text_to_be_present_in_element((By.CSS_SELECTOR, ".flashes"), f"Request #{number} was completed.")
    )
    assert "tab=complete" in browser.current_url

    search(browser, number)
    detail = open_row(browser, number)
    assert "Completed" in detail.text
    history = detail.find_element(By.ID, "mnt-history")
    items = history.find_elements(By.CSS_SELECTOR, ".mnt-history__item")
    assert [i.get_attribute("data-kind") for i in items] == ["completed", "renewed", "assigned", "created"]
    assert "Bearing replaced" in items[0].text and "Waiting for a new bearing" in items[1].text
    assert all("by Liza Cruz" in i.text for i in items)
    thumb = detail.find_element(By.CSS_SELECTOR, "img.mnt-thumb")
    wait(browser).until(
        lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", thumb) == 2
    )
    detail.find_element(By.CSS_SELECTOR, ".modal__close").click()
    wait(browser).until(EC.invisibility_of_element_located((By.ID, "mnt-detail-dialog")))
    assert "request=" not in browser.current_url  # closing tidies the address


def test_filter_by_priority_and_status_then_remove_a_chip(live_server, browser, in_app):
    with in_app():
        username = make_account().username
        seed.sample_data()
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/maintenance?tab=request")
    all_rows = len(browser.find_elements(By.CSS_SELECTOR, "tr.mnt-row"))
    assert all_rows == len(seed.SAMPLE_REQUESTS)

    browser.find_element(By.ID, "mnt-filter-button").click()
    dialog = wait(browser).until(EC.visibility_of_element_located((By.ID, "mnt-filter-dialog")))
    dialog.find_element(By.CSS_SELECTOR, 'input[name="priority"][value="mild"]').click()
    dialog.find_element(By.CSS_SELECTOR, 'input[name="status"][value="completed"]').click()
    dialog.find_element(By.ID, "mnt-filter-apply").click()

    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".mnt-chips")))
    chips = [
        c.text.replace("×", "").strip() for c in browser.find_elements(By.CSS_SELECTOR, ".mnt-chips .chip")
    ]
    assert chips == ["Status: Completed", "Priority: Mild"]
    numbers = [
        r.get_attribute("data-request-number") for r in browser.find_elements(By.CSS_SELECTOR, "tr.mnt-row")
    ]
    assert numbers == ["101339"]

    browser.find_element(By.CSS_SELECTOR, 'a[aria-label="Remove filter Status: Completed"]').click()
    wait(browser).until(lambda d: "status=" not in d.current_url)
    chips = [
        c.text.replace("×", "").strip() for c in browser.find_elements(By.CSS_SELECTOR, ".mnt-chips .chip")
    ]
    assert chips == ["Priority: Mild"]
    numbers = sorted(
        r.get_attribute("data-request-number") for r in browser.find_elements(By.CSS_SELECTOR, "tr.mnt-row")
    )
    assert numbers == ["100872", "101339", "101780"]
