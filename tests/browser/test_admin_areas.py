"""/admin/areas in headless Chromium, with JavaScript off (as a plain form page must work) and on:
add an area, see a bad name refused under its field, rename, retire and restore."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.factories import make_admin
from tests.support.browser import settled_wait, sign_in, wait


def find_row(driver, name: str):
    """The areas table's row whose rename box holds `name`, or None."""
    for row in driver.find_elements(By.CSS_SELECTOR, "#areas-table tbody tr[data-area-id]"):
        if row.find_element(By.CSS_SELECTOR, "input[name=name]").get_attribute("value") == name:
            return row
    return None


def row_for(driver, name: str):
    """That row, once the page shows it: after a form is sent the page reloads, and a look at
    the table while the new page is still arriving sees the old rows or none."""
    return settled_wait(driver).until(lambda d: find_row(d, name), f"no row for {name}")


@pytest.mark.parametrize("kind", ["browser", "browser_nojs"])
def test_an_admin_manages_areas_with_plain_forms(request, kind, live_server, in_app):
    driver = request.getfixturevalue(kind)
    with in_app():
        username = make_admin(username=f"areas.{kind}").username
    sign_in(driver, live_server.url, username)
    driver.get(f"{live_server.url}/admin")
    driver.find_element(By.ID, "tab-areas").click()
    wait(driver).until(lambda d: d.current_url.endswith("/admin/areas"))

    # A name another area has is refused under the field, which keeps what was typed.
    field = driver.find_element(By.ID, "area-new")
    field.send_keys("purok 2")
    driver.find_element(By.CSS_SELECTOR, "#area-add button[type=submit]").click()
    message = "An area named purok 2 already exists."
    settled_wait(driver).until(lambda d: d.find_element(By.ID, "area-new-error").text == message)
    assert driver.find_element(By.ID, "area-new-error").is_displayed()
    assert driver.find_element(By.ID, "area-new").get_attribute("value") == "purok 2"
    assert driver.find_element(By.ID, "area-new").get_attribute("aria-invalid") == "true"

    field = driver.find_element(By.ID, "area-new")
    field.clear()
    field.send_keys("Purok Riverside")
    driver.find_element(By.CSS_SELECTOR, "#area-add button[type=submit]").click()
    settled_wait(driver).until(
        lambda d: "Area Purok Riverside added." in d.find_element(By.TAG_NAME, "main").text
    )

    row = row_for(driver, "Purok Riverside")
    rename = row.find_element(By.CSS_SELECTOR, "input[name=name]")
    rename.clear()
    rename.send_keys("Purok Ilog")
    row.find_element(By.CSS_SELECTOR, ".admin-area-rename button").click()
    settled_wait(driver).until(
        lambda d: "Area renamed to Purok Ilog." in d.find_element(By.TAG_NAME, "main").text
    )

    row_for(driver, "Purok Ilog").find_element(By.XPATH, ".//button[normalize-space()='Retire']").click()
    settled_wait(driver).until(
        lambda d: (
            (row := find_row(d, "Purok Ilog")) is not None and row.get_attribute("data-retired") is not None
        )
    )
    assert "Retired" in row_for(driver, "Purok Ilog").text
    row_for(driver, "Purok Ilog").find_element(By.XPATH, ".//button[normalize-space()='Restore']").click()
    settled_wait(driver).until(
        lambda d: (row := find_row(d, "Purok Ilog")) is not None and row.get_attribute("data-retired") is None
    )
