"""The dashboard in headless Chromium: the doughnut's period selector and the process panel."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.support.browser import sign_in


def test_totals_switch_by_period_and_the_process_panel_advances(live_server, browser, seeded_user):
    sign_in(browser, live_server.url, seeded_user)
    wait = WebDriverWait(browser, 10)
    total = browser.find_element(By.CSS_SELECTOR, "[data-waste-total]")
    assert total.text == "4"
    # The doughnut is there from the first response (server-drawn SVG,).
    assert browser.find_element(By.CSS_SELECTOR, '[data-chart-period="weekly"] svg').is_displayed()
    select = Select(browser.find_element(By.CSS_SELECTOR, "[data-period-select]"))
    for value, expected in (("monthly", "16"), ("yearly", "192"), ("weekly", "4")):
        select.select_by_value(value)
        wait.until(lambda d, e=expected: d.find_element(By.CSS_SELECTOR, "[data-waste-total]").text == e)
        shown = browser.find_element(By.CSS_SELECTOR, f'[data-waste-period="{value}"]')
        assert shown.is_displayed() and f"{expected} kg" in shown.text
        chart = browser.find_element(By.CSS_SELECTOR, f'[data-chart-period="{value}"] svg')
        assert chart.is_displayed()
    assert "period=weekly" in browser.current_url  # the choice survives a reload

    def states(d):
        return [
            s.get_attribute("class").rsplit("--", 1)[1]
            for s in d.find_elements(By.CSS_SELECTOR, ".process__step")
        ]

    assert states(browser) == ["active", "upcoming", "upcoming", "upcoming"]
    wait.until(lambda d: states(d) == ["completed", "active", "upcoming", "upcoming"])
    step = browser.find_elements(By.CSS_SELECTOR, ".process__step")[1]
    assert step.get_attribute("aria-current") == "step" and "Active" in step.text
