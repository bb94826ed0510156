"""The profile lists where the account is signed in, one named row per browser, at phone and
laptop widths, and signs one of them out."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.factories import DEFAULT_PASSWORD, make_account
from tests.support.browser import set_viewport, settled_wait, sign_in

WIDTHS = ((390, 844), (1366, 768))
ANDROID_CHROME = (
    "Mozilla/5.0 (Linux; Android 14; SM-A155F) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36"
)

# Each row's name cell, whether it is marked current, and what the phone card shows beside a value.
ROWS = """
return [...document.querySelectorAll('#sessions-table tbody tr[data-session]')].map(r => ({
  name: r.querySelector('.session__name strong').textContent,
  current: r.hasAttribute('data-current'),
  text: r.innerText,
  label: getComputedStyle(r.children[1], '::before').content,
  button: r.querySelector('button').innerText,
}));
"""


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_sessions_are_named_marked_and_signed_out_one_by_one(
    live_server, live_app, browser, in_app, width, height
):
    with in_app():
        username = make_account(first_name="Lorna").username
    # The same account on an Android phone, through the API: its token goes with that row.
    phone = live_app.test_client()
    res = phone.post(
        "/api/auth/login",
        json={"username": username, "password": DEFAULT_PASSWORD},
        headers={"User-Agent": ANDROID_CHROME},
    )
    assert res.status_code == 200, res.json
    set_viewport(browser, width, height)
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/profile")

    rows = browser.execute_script(ROWS)
    assert sorted(r["name"] for r in rows) == ["Chrome on Android", "Chrome on Linux"]
    assert [r["name"] for r in rows if r["current"]] == ["Chrome on Linux"]
    assert all(r["button"] == "Sign out" and "127.0.0.1" in r["text"] for r in rows)
    assert "0 app sign-ins (API tokens) active." in browser.page_source
    if width < 600:  # cards that keep their labels
        assert all(r["label"] == '"Last activity"' for r in rows)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width

    android = browser.find_element(By.XPATH, "//tr[@data-session][.//strong[text()='Chrome on Android']]")
    android.find_element(By.TAG_NAME, "button").click()
    settled_wait(browser).until(lambda d: "That browser is signed out." in d.page_source)
    assert [r["name"] for r in browser.execute_script(ROWS)] == ["Chrome on Linux"]
    assert phone.get("/profile").status_code == 302  # the phone is signed out, token and all
    token = {"Authorization": f"Bearer {res.json['token']}"}
    assert live_app.test_client().get("/api/me", headers=token).status_code == 401
    # Sign-ins are labelled cards on the phone too.
    label = browser.execute_script(
        "const c = document.querySelector('#sign-ins tbody tr td:nth-child(2)');"
        "return c && getComputedStyle(c, '::before').content"
    )
    assert label == ('"Browser"' if width < 600 else "none")


def test_signing_out_this_browser_leads_to_the_sign_in_page(live_server, browser, in_app):
    with in_app():
        username = make_account().username
    sign_in(browser, live_server.url, username)
    browser.get(f"{live_server.url}/profile")
    browser.find_element(By.CSS_SELECTOR, "#sessions-table tr[data-current] button").click()
    settled_wait(browser).until(lambda d: "/login" in d.current_url)
    assert "You are signed out of this browser." in browser.page_source
    browser.get(f"{live_server.url}/profile")
    assert "/login" in browser.current_url
