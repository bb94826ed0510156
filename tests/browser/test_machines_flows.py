"""/sibol-machines in headless Chromium: the machine modals, search, the error banner, the
chemical additive and waste container forms, and the type-ahead machine selector."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from sibol.models import RoleId
from tests.factories import make_account, make_machine
from tests.factories_machines import make_additive, make_container, status_id
from tests.support.browser import settled_wait, sign_in


def wait(browser, timeout: float = 10):
    # The island re-renders the table after each change; a row read mid-render is retried.
    return settled_wait(browser, timeout)


def open_as_staff(browser, live_server, in_app, next_path: str):
    with in_app():
        account = make_account(role=RoleId.STAFF)
        username = account.username
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}{next_path}")


def last_flash(browser) -> str:
    """The newest message in the page's flash area (lib/confirm.ts flash), once there is one."""
    return (
        wait(browser)
        .until(lambda d: (d.find_elements(By.CSS_SELECTOR, ".flashes .banner") or [None])[-1])
        .text
    )


def table_text(browser) -> str:
    return browser.find_element(By.ID, "machines-table").text


def loaded(browser) -> str:
    wait(browser).until(lambda d: "Loading machines..." not in table_text(d))
    return table_text(browser)


def row_of(browser, machine_id: int) -> str:
    for row in browser.find_elements(By.CSS_SELECTOR, "#machines-table tbody tr"):
        text = " ".join(row.text.split())
        if text.startswith(f"#{machine_id} "):
            return text
    return ""


def edit(browser, machine_id: int, *, name=None, area=None, status=None):
    browser.find_element(By.CSS_SELECTOR, f'button[aria-label="Edit machine #{machine_id}"]').click()
    dialog = wait(browser).until(EC.visibility_of_element_located((By.ID, "machine-edit")))
    assert dialog.find_element(By.TAG_NAME, "h2").text == f"Edit Machine #{machine_id}"
    if name is not None:
        field = dialog.find_element(By.ID, "machine-edit-name")
        field.clear()
        field.send_keys(name)
    if area is not None:
        Select(dialog.find_element(By.ID, "machine-edit-area")).select_by_visible_text(area)
    if status is not None:
        Select(dialog.find_element(By.ID, "machine-edit-status")).select_by_visible_text(status)
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert last_flash(browser) == "Machine updated successfully!"
    browser.execute_script("document.querySelector('.flashes').replaceChildren()")  # the next one alone


def test_add_edit_clear_status_and_search_a_machine(live_server, browser, in_app):
    with in_app():
        make_machine("Existing Composter", area="Purok 1", status_id=status_id("Active"))
    open_as_staff(browser, live_server, in_app, "/sibol-machines?tab=machines")
    assert "Existing Composter" in loaded(browser)

    browser.find_element(By.ID, "machines-add").click()
    dialog = wait(browser).until(EC.visibility_of_element_located((By.ID, "machine-add")))
    assert "Machine Name *" in dialog.text and "Area *" in dialog.text and "Start Date *" in dialog.text
    dialog.find_element(By.ID, "machine-add-name").send_keys("Purok 2 Digester")
    Select(dialog.find_element(By.ID, "machine-add-area")).select_by_visible_text("Purok 2")
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    created = wait(browser).until(EC.visibility_of_element_located((By.ID, "machine-created")))
    assert "Machine Purok 2 Digester created. Issue its device key to connect it." in created.text
    created.find_element(By.XPATH, ".//button[normalize-space()='Done']").click()
    wait(browser).until(lambda d: "Purok 2 Digester" in loaded(d))
    new_id = int(table_text(browser).split(" Purok 2 Digester")[0].rsplit("#", 1)[1])
    assert row_of(browser, new_id) == f"#{new_id} Purok 2 Digester Purok 2 No Status never Edit Device"

    edit(browser, new_id, name="Renamed Digester", area="Purok 4", status="Offline")
    wait(browser).until(
        lambda d: row_of(d, new_id) == f"#{new_id} Renamed Digester Purok 4 Offline never Edit Device"
    )
    edit(browser, new_id, status="No Status")
    wait(browser).until(
        lambda d: row_of(d, new_id) == f"#{new_id} Renamed Digester Purok 4 No Status never Edit Device"
    )

    search = browser.find_element(By.ID, "machines-q")
    search.send_keys("RENAMED dig")
    search.submit()
    wait(browser).until(EC.url_contains("q=RENAMED"))
    text = loaded(browser)
    assert "Renamed Digester" in text and "Existing Composter" not in text


def test_error_banner_when_the_machines_call_fails(live_server, browser, in_app):
    open_as_staff(browser, live_server, in_app, "/sibol-machines?tab=machines")
    loaded(browser)
    # A stale bearer token makes every /api call anonymous: the server refuses with 401.
    browser.execute_script("localStorage.setItem('token', 'stale-token')")
    browser.refresh()
    banner = wait(browser).until(
        EC.visibility_of_element_located((By.CSS_SELECTOR, "[data-testid=machines-error]"))
    )
    assert "Sign in to continue." in banner.text
    banner.find_element(By.CSS_SELECTOR, "button[aria-label=Dismiss]").click()
    wait(browser).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "[data-testid=machines-error]"))


def test_rows_follow_the_selector_and_the_add_forms_save(live_server, browser, in_app):
    with in_app():
        alpha, beta = make_machine("Alpha Digester"), make_machine("Beta Shredder")
        make_additive(alpha, chemical_input="Lime")
        make_additive(beta, chemical_input="Urea")
        make_container(alpha, container_no="WC-ALPHA")
        beta_id = beta.id
    open_as_staff(browser, live_server, in_app, "/sibol-machines")
    table = browser.find_element(By.ID, "chemical-additives")
    assert "Lime" in table.text and "Urea" not in table.text

    combo = wait(browser).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "input[role=combobox]")))
    assert combo.get_attribute("value") == "Alpha Digester"
    combo.click()
    combo.send_keys("beta")
    option = wait(browser).until(
        EC.visibility_of_element_located((By.CSS_SELECTOR, f'li[role=option][data-machine-id="{beta_id}"]'))
    )
    option.click()
    wait(browser).until(EC.url_contains(f"machine={beta_id}"))
    wait(browser).until(
        lambda d: (
            "Urea" in d.find_element(By.ID, "chemical-additives").text
            and "Lime" not in d.find_element(By.ID, "chemical-additives").text
        )
    )

    browser.find_element(By.ID, "machines-add").click()
    dialog = wait(browser).until(EC.visibility_of_element_located((By.ID, "add-row-dialog")))
    Select(dialog.find_element(By.ID, "add-area")).select_by_visible_text("Package 3")
    dialog.find_element(By.ID, "add-chem").send_keys("Molasses")
    dialog.find_element(By.ID, "add-person").send_keys("Lito Lapid")
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser).until(lambda d: "Molasses" in d.find_element(By.ID, "chemical-additives").text)
    wait(browser).until(lambda d: "Lito Lapid" in d.find_element(By.ID, "chemical-additives").text)

    browser.find_element(By.LINK_TEXT, "Waste Container").click()
    wait(browser).until(  # the default: the first machine
        lambda d: (
            d.find_element(By.CSS_SELECTOR, "input[role=combobox]").get_attribute("value") == "Alpha Digester"
        )
    )
    wait(browser).until(lambda d: "WC-ALPHA" in d.find_element(By.ID, "waste-containers").text)
    browser.find_element(By.ID, "machines-add").click()
    dialog = wait(browser).until(EC.visibility_of_element_located((By.ID, "add-row-dialog")))
    Select(dialog.find_element(By.ID, "add-area")).select_by_visible_text("Package 2")
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser).until(lambda d: "Package 2" in d.find_element(By.ID, "waste-containers").text)
    wait(browser).until(lambda d: "Not Full" in d.find_element(By.ID, "waste-containers").text)


def test_machines_and_rows_read_without_javascript(live_server, browser_nojs, in_app):
    with in_app():
        machine = make_machine("Plain Digester", area="Purok 3")
        make_additive(machine, chemical_input="Lime")
        machine_id = machine.id
    open_as_staff(browser_nojs, live_server, in_app, "/sibol-machines?tab=machines")
    assert f"#{machine_id} Plain Digester Purok 3 No Status" in table_text(browser_nojs).replace("\n", " ")
    browser_nojs.find_element(By.LINK_TEXT, "Chemical Additives").click()
    assert "Lime" in browser_nojs.find_element(By.ID, "chemical-additives").text
