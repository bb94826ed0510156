"""The Household page in headless Chromium: dialogs, area chips, reward image, point rule, filters."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.factories import make_account
from tests.factories_household import make_schedule, png_bytes
from tests.support.browser import settled_wait, sign_in


def first_row(browser, table="schedule-table"):
    return [td.text for td in browser.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr:first-child td")]


def test_add_a_schedule_then_edit_its_areas_with_chips(live_server, browser, in_app):
    with in_app():
        username = make_account().username
    sign_in(browser, live_server.url, username)
    # The table is re-rendered by a page load: a row read mid-load is stale, so read again.
    wait = settled_wait(browser)
    browser.get(f"{live_server.url}/household")
    before = browser.current_url
    browser.find_element(By.LINK_TEXT, "Add Schedule").click()
    dialog = wait.until(EC.visibility_of_element_located((By.ID, "add-schedule")))
    assert browser.current_url == before  # opened in place by the island
    dialog.find_element(By.NAME, "maintenancePerson").send_keys("Juan Dela Cruz")
    dialog.find_element(By.NAME, "collectorContact").send_keys("0917 123 4567")
    dialog.find_element(By.NAME, "areas").send_keys("Purok 1")
    browser.execute_script(
        "arguments[0].value = '2026-12-01'", dialog.find_element(By.NAME, "dateOfCollection")
    )
    dialog.find_element(By.XPATH, ".//button[text()='Save Schedule']").click()
    wait.until(lambda d: "Collection schedule saved." in d.page_source)
    assert first_row(browser)[:3] == ["Juan Dela Cruz", "Purok 1", "Pending"]

    browser.find_element(By.CSS_SELECTOR, "#schedule-table tbody tr:first-child a").click()
    dialog = wait.until(EC.visibility_of_element_located((By.ID, "edit-schedule")))

    def chips():
        return [c.text.replace("×", "").strip() for c in dialog.find_elements(By.CSS_SELECTOR, ".chip")]

    assert chips() == ["Purok 1"]
    box = dialog.find_element(By.ID, "edit-areas")
    box.send_keys("Package 7", Keys.ENTER)  # Enter adds a chip and does not submit
    box.send_keys("Package 8", Keys.ENTER)
    assert chips() == ["Purok 1", "Package 7", "Package 8"]
    dialog.find_element(By.CSS_SELECTOR, "button[aria-label='Remove Purok 1']").click()
    assert chips() == ["Package 7", "Package 8"]
    dialog.find_element(By.XPATH, ".//button[text()='Save']").click()
    wait.until(lambda d: "Collection schedule updated." in d.page_source)
    assert first_row(browser)[:2] == ["Juan Dela Cruz", "Package 7, Package 8"]


def test_add_a_reward_with_an_image(live_server, browser, in_app, tmp_path):
    with in_app():
        username = make_account().username
    image = tmp_path / "rice.png"
    image.write_bytes(png_bytes(8, 8))
    sign_in(browser, live_server.url, username)
    wait = WebDriverWait(browser, 10)
    browser.get(f"{live_server.url}/household?tab=rewards")
    browser.find_element(By.LINK_TEXT, "Add Reward").click()
    dialog = wait.until(EC.visibility_of_element_located((By.ID, "add-reward")))
    assert "10MB" in dialog.text
    dialog.find_element(By.NAME, "reward").send_keys("Rice (5 kg)")
    dialog.find_element(By.NAME, "points").send_keys("500")
    dialog.find_element(By.NAME, "image").send_keys(str(image))
    dialog.find_element(By.XPATH, ".//button[text()='Save']").click()
    wait.until(lambda d: "Reward saved." in d.page_source)
    assert first_row(browser, "rewards-table") == [
        "1",
        "Rice (5 kg)",
        "All areas",
        "500",
        "Available",
        "Claim",
    ]
    thumb = browser.find_element(By.CSS_SELECTOR, "#rewards-table img.reward-thumb")
    wait.until(
        lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", thumb) == 8
    )


def test_point_rule_survives_a_reload(live_server, browser, in_app):
    with in_app():
        username = make_account().username
    sign_in(browser, live_server.url, username)
    wait = WebDriverWait(browser, 10)
    browser.get(f"{live_server.url}/household?tab=points")
    kg, points = browser.find_element(By.ID, "wasteKg"), browser.find_element(By.ID, "points")
    assert not kg.is_enabled() and kg.get_attribute("value") == "1" and points.get_attribute("value") == "30"
    browser.find_element(By.LINK_TEXT, "Edit").click()
    assert kg.is_enabled() and points.is_enabled()
    kg.clear()
    kg.send_keys("2")
    points.clear()
    points.send_keys("75")
    browser.find_element(By.XPATH, "//button[text()='Save']").click()
    wait.until(lambda d: "Point system saved." in d.page_source)
    browser.refresh()
    kg, points = browser.find_element(By.ID, "wasteKg"), browser.find_element(By.ID, "points")
    assert kg.get_attribute("value") == "2" and points.get_attribute("value") == "75"
    assert not kg.is_enabled() and "2 kg of food waste = 75 points" in browser.page_source


def test_search_and_filter_the_schedule(live_server, browser, in_app):
    with in_app():
        username = make_account().username
        make_schedule(areas=("Purok 1",), person="Ana Cruz", status="Collected")
        make_schedule(areas=("Package 2",), person="Ben Reyes")
        make_schedule(areas=("Purok 3",), person="Cora Lim")
    sign_in(browser, live_server.url, username)
    # The table is re-rendered by a page load: a row read mid-load is stale, so read again.
    wait = settled_wait(browser)
    browser.get(f"{live_server.url}/household")

    def names():
        return [
            r.find_element(By.TAG_NAME, "td").text
            for r in browser.find_elements(By.CSS_SELECTOR, "#schedule-table tbody tr")
        ]

    assert sorted(names()) == ["Ana Cruz", "Ben Reyes", "Cora Lim"]
    search = browser.find_element(By.ID, "q")
    search.send_keys("purok", Keys.ENTER)
    wait.until(lambda d: sorted(names()) == ["Ana Cruz", "Cora Lim"])
    browser.find_element(By.XPATH, "//summary[starts-with(normalize-space(), 'Filter by')]").click()
    Select(browser.find_element(By.ID, "status-filter")).select_by_value("Collected")
    browser.find_element(By.XPATH, "//button[text()='Apply']").click()
    wait.until(lambda d: names() == ["Ana Cruz"])
    assert (
        "Filter by: Collected" in browser.page_source
        and browser.find_element(By.ID, "q").get_attribute("value") == "purok"
    )


def test_add_schedule_without_javascript(live_server, browser_nojs, in_app):
    with in_app():
        username = make_account().username
    browser = browser_nojs
    sign_in(browser, live_server.url, username)
    assert "No waste collections recorded yet." in browser.page_source  # the dashboard renders without JS
    browser.get(f"{live_server.url}/household")
    browser.find_element(By.LINK_TEXT, "Add Schedule").click()  # a link: the server opens the dialog
    dialog = WebDriverWait(browser, 10).until(EC.visibility_of_element_located((By.ID, "add-schedule")))
    dialog.find_element(By.NAME, "maintenancePerson").send_keys("Nilo Santos")
    dialog.find_element(By.NAME, "collectorContact").send_keys("nilo@example.ph")
    dialog.find_element(By.NAME, "areas").send_keys("Purok 4, Package 1")
    browser.execute_script(
        "arguments[0].value = '2026-12-24'", dialog.find_element(By.NAME, "dateOfCollection")
    )
    dialog.find_element(By.XPATH, ".//button[text()='Save Schedule']").click()
    WebDriverWait(browser, 10).until(lambda d: "Collection schedule saved." in d.page_source)
    assert first_row(browser)[:3] == ["Nilo Santos", "Purok 4, Package 1", "Pending"]
