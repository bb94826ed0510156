"""A household joins the leaderboard, earns points for food waste and claims a reward (Chromium)."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from tests.factories import make_account
from tests.factories_household import make_reward
from tests.support.browser import answer_confirm, settled_wait, sign_in


def table_rows(browser, table: str) -> list[list[str]]:
    return [
        [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
        for tr in browser.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")
    ]


def test_add_a_household_record_waste_and_claim_a_reward(live_server, browser, in_app):
    with in_app():
        username = make_account().username
        make_reward("Rice (5 kg)", points=500)
    sign_in(browser, live_server.url, username)
    wait = settled_wait(browser)

    browser.get(f"{live_server.url}/household?tab=leaderboard")
    browser.find_element(By.LINK_TEXT, "Add Household").click()
    dialog = wait.until(EC.visibility_of_element_located((By.ID, "add-household")))
    dialog.find_element(By.NAME, "name").send_keys("Nilo Santos")
    Select(dialog.find_element(By.NAME, "barangay")).select_by_visible_text("Barangay Fortune")
    assert dialog.find_element(By.NAME, "points").get_attribute("value") == "0"
    dialog.find_element(By.XPATH, ".//button[text()='Save Household']").click()
    wait.until(lambda d: "Nilo Santos added to the leaderboard." in d.page_source)
    assert table_rows(browser, "leaderboard-table")[0][:5] == [
        "1",
        "Nilo Santos",
        "Barangay Fortune",
        "0",
        "Active",
    ]

    browser.find_element(By.LINK_TEXT, "Record waste").click()
    dialog = wait.until(EC.visibility_of_element_located((By.ID, "record-waste")))
    assert "1 kg = 30 points" in dialog.text
    dialog.find_element(By.NAME, "wasteKg").send_keys("20")
    wait.until(
        lambda d: dialog.find_element(By.CSS_SELECTOR, "[data-earn-preview]").text == "Earns 600 points"
    )
    dialog.find_element(By.XPATH, ".//button[text()='Record']").click()
    wait.until(lambda d: "20 kg of food waste recorded, 600 points earned" in d.page_source)
    wait.until(lambda d: table_rows(d, "leaderboard-table")[0][3] == "600")

    browser.find_element(By.LINK_TEXT, "Rewards").click()
    wait.until(EC.element_to_be_clickable((By.LINK_TEXT, "Claim"))).click()
    dialog = wait.until(EC.visibility_of_element_located((By.ID, "claim-reward")))
    Select(dialog.find_element(By.NAME, "memberId")).select_by_visible_text(
        "Nilo Santos (Barangay Fortune) · 600 points"
    )
    dialog.find_element(By.XPATH, ".//button[text()='Claim']").click()
    assert answer_confirm(browser).startswith("Claim Rice (5 kg)? 500 points")  # A claim asks first
    wait.until(lambda d: "Nilo Santos claimed Rice (5 kg) for 500 points (100 left)." in d.page_source)
    assert "tab=claimed" in browser.current_url
    assert [r[1:4] for r in table_rows(browser, "claims-table")] == [["Nilo Santos", "Rice (5 kg)", "500"]]

    browser.find_element(By.LINK_TEXT, "Leaderboard").click()
    wait.until(
        lambda d: table_rows(d, "leaderboard-table")[0][1:4] == ["Nilo Santos", "Barangay Fortune", "100"]
    )
