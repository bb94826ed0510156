"""The code-input island, built by Vite and mounted on the sign-in page's Forgot Password dialog."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait


def boxes(browser):
    return WebDriverWait(browser, 10).until(
        lambda d: (found := d.find_elements(By.CSS_SELECTOR, ".code-input__box")) and len(found) == 6 and found
    )


def values(browser):
    return "".join(b.get_attribute("value") for b in boxes(browser))


def test_code_boxes_type_backspace_and_paste(live_server, browser):
    browser.get(f"{live_server.url}/login?forgot=1")
    first = boxes(browser)[0]
    first.click()
    active = browser.switch_to.active_element
    active.send_keys("1")
    browser.switch_to.active_element.send_keys("a")  # stripped: stays on the second box
    browser.switch_to.active_element.send_keys("2")
    assert values(browser) == "12"
    assert browser.switch_to.active_element == boxes(browser)[2]
    browser.switch_to.active_element.send_keys(Keys.BACKSPACE)  # empty box: back to box 2
    assert browser.switch_to.active_element == boxes(browser)[1]
    # Paste "98-76 54" into the first box through the clipboard event the island handles.
    browser.execute_script(
        """const box = arguments[0]; box.focus();
           const data = new DataTransfer(); data.setData('text/plain', '98-76 54 3');
           box.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));""",
        boxes(browser)[0],
    )
    WebDriverWait(browser, 5).until(lambda d: values(d) == "987654")
    hidden = browser.find_element(By.CSS_SELECTOR, 'input[type="hidden"][name="code"]')
    assert hidden.get_attribute("value") == "987654"
    assert EC.visibility_of(boxes(browser)[5])
