"""The dashboard's charts are visible before any script, and Chart.js is fetched only
when a chart is pointed at, then draws over the SVG without the chart going blank."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.support.browser import sign_in

LOADED_CHART_JS = (
    "return performance.getEntriesByType('resource').some(e => /\\/charts-[\\w-]+\\.js/.test(e.name))"
)


def test_svg_charts_first_then_chart_js_on_hover(live_server, browser, seeded_user):
    sign_in(browser, live_server.url, seeded_user)
    wait = WebDriverWait(browser, 15)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-island-mounted]"))
    doughnut = browser.find_element(By.CSS_SELECTOR, '[data-chart-period="weekly"] svg')
    energy = browser.find_element(By.CSS_SELECTOR, ".dashboard__energy .chart__svg")
    assert doughnut.is_displayed() and energy.is_displayed()
    assert doughnut.size["height"] > 150 and energy.size["width"] > 250
    assert not browser.find_element(By.ID, "waste-chart").is_displayed()
    assert browser.execute_script(LOADED_CHART_JS) is False  # nothing fetched for the charts yet

    ActionChains(browser).move_to_element(doughnut).perform()
    wait.until(lambda d: d.execute_script(LOADED_CHART_JS))
    box = browser.find_element(By.CSS_SELECTOR, ".chart--doughnut")
    wait.until(lambda d: "chart--live" in box.get_attribute("class"))
    canvas = browser.find_element(By.ID, "waste-chart")
    assert canvas.is_displayed() and canvas.size["height"] > 150
    # The canvas covers the SVG's box: same place, same size.
    svg_box = browser.find_element(By.CSS_SELECTOR, ".chart--doughnut .chart__pane")
    assert abs(canvas.location["y"] - svg_box.location["y"]) <= 1
    assert browser.find_element(By.ID, "energy-chart").is_displayed()
