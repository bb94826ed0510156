"""The redeem page scans a claim's QR code on phones whose browser has no BarcodeDetector (the
jsQR chunk reads the camera's frames), and says to type the code where there is no camera.

The camera is a stand-in: before the page's scripts run, getUserMedia is replaced by a canvas
stream that shows the claim's real QR image (or by a refusal as a camera-less device gives)."""

from __future__ import annotations

import base64

import pytest
from selenium.webdriver.common.by import By

from sibol.extensions import db
from sibol.household.residents.claims import qr_png, reserve
from sibol.models import RoleId
from tests.factories import make_account
from tests.factories_household import make_member, make_reward
from tests.support.browser import set_viewport, settled_wait, sign_in

WIDTHS = ((390, 844), (1366, 768))

# A camera showing the QR image: a canvas redrawn with it, as a media stream.
CAMERA_SHOWING = """
delete window.BarcodeDetector;
navigator.mediaDevices.getUserMedia = async () => {
  const image = new Image();
  image.src = "data:image/png;base64,%s";
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = 640; canvas.height = 480;
  const context = canvas.getContext("2d");
  const draw = () => {
    context.fillStyle = "#fff";
    context.fillRect(0, 0, 640, 480);
    context.drawImage(image, 170, 90, 300, 300);
  };
  draw();
  setInterval(draw, 100);
  return canvas.captureStream(10);
};
"""

# A camera showing nothing to read: the scanner keeps looking.
BLANK_CAMERA = """
delete window.BarcodeDetector;
navigator.mediaDevices.getUserMedia = async () => {
  const canvas = document.createElement("canvas");
  canvas.width = 640; canvas.height = 480;
  const context = canvas.getContext("2d");
  setInterval(() => { context.fillStyle = "#eee"; context.fillRect(0, 0, 640, 480); }, 100);
  return canvas.captureStream(10);
};
"""

# A device with no camera: the browser answers NotFoundError.
NO_CAMERA = """
delete window.BarcodeDetector;
navigator.mediaDevices.getUserMedia = () =>
  Promise.reject(new DOMException("Requested device not found", "NotFoundError"));
"""


def before_scripts(driver, source: str) -> None:
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})


def loaded_scripts(driver) -> list[str]:
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.endsWith('.js'))"
    )


@pytest.fixture
def claim(in_app):
    with in_app():
        member = make_member("Nora Diaz", points=250)
        reward = make_reward("Eco bag", points=100)
        made = reserve(member, reward.id)
        db.session.commit()
        staff = make_account(role=RoleId.STAFF).username
        return staff, made.code, base64.b64encode(qr_png(made.code)).decode()


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_the_decoder_chunk_scans_the_camera_without_barcode_detector(
    live_server, browser, claim, width, height
):
    staff, code, png = claim
    set_viewport(browser, width, height)
    sign_in(browser, live_server.url, staff)
    before_scripts(browser, CAMERA_SHOWING % png)
    browser.get(f"{live_server.url}/household/redeem")
    found = settled_wait(browser, 20).until(lambda d: d.find_elements(By.ID, "redeemed"))
    assert "Redeemed: Eco bag for Nora Diaz" in found[0].text
    # One announcement of the success: the banner; the scanner's own status said nothing of it.
    statuses = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[role=status]") if e.text]
    assert len([s for s in statuses if "Redeemed" in s or code in s]) == 1


def test_the_decoder_loads_only_where_it_is_needed(live_server, browser, claim):
    staff, _code, _png = claim
    sign_in(browser, live_server.url, staff)
    browser.get(f"{live_server.url}/household")
    assert not [s for s in loaded_scripts(browser) if "jsQR" in s]
    before_scripts(browser, BLANK_CAMERA)
    browser.get(f"{live_server.url}/household/redeem")
    served = browser.execute_script("return fetch(location.href).then((r) => r.text())")
    assert "claim-scanner" in served and "jsQR" not in served  # no preload: fetched when the camera runs
    settled_wait(browser).until(lambda d: [s for s in loaded_scripts(d) if "/jsQR-" in s])
    status = browser.find_element(By.ID, "claim-scanner-status")
    assert status.text == "Point the camera at the resident's QR code."


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_without_a_camera_the_page_says_to_type_the_code(live_server, browser, claim, width, height):
    staff, code, _png = claim
    set_viewport(browser, width, height)
    sign_in(browser, live_server.url, staff)
    before_scripts(browser, NO_CAMERA)
    browser.get(f"{live_server.url}/household/redeem")
    note = settled_wait(browser).until(
        lambda d: (
            d.find_element(By.ID, "claim-scanner-no-camera").is_displayed()
            and d.find_element(By.ID, "claim-scanner-no-camera")
        )
    )
    assert "type the code" in note.text
    assert not browser.find_element(By.ID, "claim-scanner-video").is_displayed()
    assert not [s for s in loaded_scripts(browser) if "jsQR" in s]
    browser.find_element(By.NAME, "code").send_keys(code)
    browser.find_element(By.CSS_SELECTOR, "#redeem-form button[type=submit]").click()
    assert "Redeemed" in settled_wait(browser).until(lambda d: d.find_element(By.ID, "redeemed")).text
