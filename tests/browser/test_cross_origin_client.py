"""The spec's own client in a real browser: a page of our test code on a second origin plays the spec's client.

The browser first visits one of our pages (as after an e-mail link or the Google button), so it
holds our session cookie; the page on the other origin then calls /api with
credentials: 'include', as the spec's client does. The anonymous cookie must not block its JSON
calls (the CSRF trap), while a cookie that carries a signed-in account still needs the token.
"""

from __future__ import annotations

import functools
import json
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlencode

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from sqlalchemy import select

from sibol.auth import recovery
from sibol.extensions import db, mail
from sibol.models import Account, AccountStatus, CollectionSchedule, Machine, RoleId
from tests.factories import DEFAULT_PASSWORD, make_account, make_admin, make_machine
from tests.factories_household import make_schedule
from tests.factories_machines import area_id, status_id

PAGE_DIR = Path(__file__).parent / "spec_client"
EXPIRED = "The form expired or its security token is missing. Reload the page and try again."


class ClientHandler(SimpleHTTPRequestHandler):
    """Serves the stand-in's files; its routes (/email-verification, ...) get index.html, as a
    single-page client's host does."""

    def translate_path(self, path: str) -> str:
        served = super().translate_path(path)
        return served if Path(served).is_file() else str(PAGE_DIR / "index.html")

    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass


@pytest.fixture
def client_origin():
    """The second origin: a plain static server for tests/browser/spec_client/ on another port."""
    handler = functools.partial(ClientHandler, directory=str(PAGE_DIR))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)
    server.server_close()


@pytest.fixture
def live_overrides(client_origin):
    return {"SIBOL_CORS_ORIGINS": [client_origin], "SIBOL_CLIENT_URL": client_origin}


def test_spec_client_on_another_origin_works_after_visiting_our_pages(
    browser, live_server, in_app, client_origin
):
    with in_app():
        admin = make_admin(email="boss@example.test")
        machine = make_machine("Digester One", status_id=status_id("Active"))
        make_schedule(areas=("Purok 5",), person="Maria Santos")
        operator = make_account(
            role=RoleId.OPERATOR, first_name="Maria", last_name="Santos", username="maria"
        )
        areas = {n: area_id(f"Purok {n}") for n in (1, 2)}
        ids = {
            "username": admin.username,
            "machine": machine.id,
            "area": areas[1],
            "operator": operator.username,
        }

    browser.get(f"{live_server.url}/login")  # one of our pages: the browser now holds our cookie
    assert "session" in {cookie["name"] for cookie in browser.get_cookies()}

    query = {"api": live_server.url, "email": "boss@example.test", "password": DEFAULT_PASSWORD, **ids}
    with mail.record_messages() as outbox:
        browser.get(f"{client_origin}/index.html?{urlencode(query)}")
        steps = results_of(browser)

    def answered(step: str, status: int) -> dict:
        assert steps[step]["status"] == status, steps[step]
        return steps[step]["payload"]

    assert answered("barangays", 200)["barangays"]
    assert answered("forgot-password", 200)["message"] == "Reset code sent. Check your email."
    assert answered("signup", 201)["username"] == "rosa.lim"
    assert answered("resend-verification", 200)["success"] is True
    assert answered("login", 200)["user"]["Username"] == admin.username
    assert answered("cookie-write-without-bearer", 400)["message"] == EXPIRED
    assert [m["key"] for m in answered("modules", 200)][-1] == "admin"
    assert answered("machine-no-status", 200)["data"]["status_id"] is None
    assert [(m["machine_id"], m["Name"]) for m in answered("machines-plain", 200)] == [
        (machine.id, "Digester One")
    ]
    assert [r["Collector"] for r in answered("schedules", 200)] == ["Maria Santos"]
    assert [a["Area_Name"] for a in answered("areas", 200)] == [f"Purok {n}" for n in range(1, 6)]
    assert [(o["Username"], o["name"]) for o in answered("operators", 200)] == [("maria", "Maria Santos")]
    added = answered("schedule-add", 201)["schedule"]
    assert (added["Account_id"], added["Area"], added["sched_stat_id"]) == (
        operator.id,
        [areas[1], areas[2]],
        2,
    )
    assert answered("schedule-edit", 200)["schedule"]["Collector"] == "Maria S. Santos"
    edited = [r for r in answered("schedules-after-edit", 200) if r["Schedule_id"] == added["Schedule_id"]]
    assert [(r["sched_stat_id"], r["AreaName"]) for r in edited] == [(3, "Purok 1, Purok 2")]
    assert answered("schedule-delete", 200)["success"] is True
    assert answered("create-user", 201)["passwordTemporary"] is True
    assert answered("fallback-pending", 404)["message"] == "Not found."
    assert answered("logout", 200)["success"] is True
    new_user = answered("login-new-user", 200)
    assert new_user["user"]["Username"] == "lito.reyes" and new_user["passwordTemporary"] is True
    assert answered("logout-new-user", 200)["success"] is True
    assert answered("login-again", 200)["user"]["Username"] == admin.username

    with in_app():
        assert db.session.get(Machine, machine.id).status_id is None
        assert db.session.get(CollectionSchedule, added["Schedule_id"]) is None
    # What a person sees on the client's page: every step with its answer.
    table = browser.find_element(By.ID, "steps").text
    assert "signup 201 Registration successful. Check your email to verify your address." in table

    # The verification e-mail leads to the client (SIBOL_CLIENT_URL), whose page verifies the link.
    sent = [m for m in outbox if m.recipients == ["rosa.lim@example.test"]]
    assert len(sent) == 2  # sign-up, then resend (whose link replaces the first)
    verification = sent[-1]
    link = next(word for word in verification.body.split() if "/email-verification?" in word)
    assert link.startswith(f"{client_origin}/email-verification?token=")
    browser.get(link)
    verified = results_of(browser)["verify-email"]
    assert verified["status"] == 200 and verified["payload"]["email"] == "rosa.lim@example.test"
    assert browser.find_element(By.TAG_NAME, "h1").text == "Verifying rosa.lim@example.test"
    with in_app():
        rosa = db.session.scalar(select(Account).where(Account.email == "rosa.lim@example.test"))
        assert rosa.status == AccountStatus.PENDING


def results_of(browser) -> dict[str, dict]:
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-done"))
    return {r["step"]: r for r in json.loads(browser.find_element(By.ID, "results").text)}


def test_a_first_password_set_on_our_page_ends_on_the_clients_sign_in_page(
    browser, live_server, in_app, client_origin
):
    """Our set-password form redirects to the client's /login: the page's Content-Security-Policy
    lets the form end there (form-action covers a form's redirects), so the browser follows."""
    with in_app():
        account = make_account(username="lito", password=None)
        set_url = recovery.activate_for_approval(account).replace("http://localhost", live_server.url)
    browser.get(set_url)
    browser.find_element(By.ID, "newPassword").send_keys("N3w-Passw0rd!x")
    browser.find_element(By.ID, "confirmPassword").send_keys("N3w-Passw0rd!x")
    browser.find_element(By.ID, "set-password").click()
    WebDriverWait(browser, 10).until(lambda d: d.current_url.startswith(f"{client_origin}/login"))
    assert "username=lito" in browser.current_url
    assert browser.find_element(By.TAG_NAME, "h1").text == "Client calls"  # the client's page
    with in_app():
        db.session.expire_all()
        assert db.session.scalar(select(Account).where(Account.username == "lito")).password_hash
