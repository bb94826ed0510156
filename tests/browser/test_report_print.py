"""The monthly report in headless Chromium: reached from the dashboard, and printed (print media,
then a real A4 PDF) without the navigation, with the barangay and month at the top of each page."""

from __future__ import annotations

import base64
from datetime import date

import pypdfium2
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from sibol.dashboard import seed as dashboard_seed
from sibol.household import seed as household_seed
from sibol.models import RoleId
from tests.factories import make_account
from tests.factories_household import make_waste
from tests.support.axe import axe_violations, describe
from tests.support.browser import sign_in


def shown(driver, selector: str) -> bool:
    return driver.find_element(By.CSS_SELECTOR, selector).is_displayed()


def test_report_prints_without_navigation_and_with_a_running_header(live_server, browser, in_app):
    with in_app():
        dashboard_seed.sample_data()
        household_seed.sample_data()
        for n in range(50):  # enough streets for the waste table to run over a page
            make_waste(f"Purok street {n}", date(2025, 3, 10), 1000 + n)
        username = make_account(role=RoleId.STAFF).username
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/dashboard")
    browser.find_element(By.CSS_SELECTOR, "[data-report-link]").click()
    WebDriverWait(browser, 10).until(lambda d: "/reports/monthly" in d.current_url)

    # Another month through the picker's previous-month links, with no JavaScript needed.
    browser.get(f"{live_server.url}/reports/monthly?month=2025-04")
    browser.find_element(By.CSS_SELECTOR, 'a[rel="prev"]').click()
    WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("month=2025-03"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Monthly report"

    # On screen: the navigation and the tools show, the running header does not.
    WebDriverWait(browser, 10).until(lambda d: shown(d, "[data-print]"))  # the script un-hides it
    assert shown(browser, ".topbar") and shown(browser, ".report__picker")
    assert not shown(browser, "[data-running-header]")
    violations = axe_violations(browser)
    assert not violations, describe(violations)

    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert not shown(browser, ".topbar")
    assert not shown(browser, "[data-print]") and not shown(browser, ".report__picker")
    header = browser.find_element(By.CSS_SELECTOR, "[data-running-header]")
    assert header.is_displayed()
    assert "Barangay Fortune" in header.text and "March 2025" in header.text
    sections = browser.find_elements(By.CSS_SELECTOR, ".report-section")
    assert len(sections) == 4
    # The first section follows the title; each other one starts a page.
    assert [s.value_of_css_property("break-before") for s in sections] == ["auto", "page", "page", "page"]
    assert "Purok street 49" in sections[0].text  # the figures print too

    # A real print, read back: A4 pages, each headed by the barangay and the month, and the
    # waste table continued over a page break under that header.
    data = browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})["data"]
    pdf = pypdfium2.PdfDocument(base64.b64decode(data))
    pages = [pdf[i] for i in range(len(pdf))]
    assert len(pages) >= 5  # title + waste over two pages, then energy, households, maintenance
    assert all((round(p.get_width()), round(p.get_height())) == (595, 842) for p in pages)  # A4 in points
    texts = [p.get_textpage().get_text_range() for p in pages]
    assert all(t.lstrip().startswith("Barangay Fortune · Monthly report · March 2025") for t in texts), texts
    assert not any("Logout" in t or "Print" in t.split() for t in texts)
    continued = next(t for t in texts if "Purok street 49" in t)
    assert "Waste collected" not in continued and "March 2025 February 2025" in " ".join(continued.split())
    assert sum(t.count("Energy produced") for t in texts) == 1
    pdf.close()

    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert shown(browser, ".topbar") and not shown(browser, "[data-running-header]")
