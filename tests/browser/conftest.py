"""Browser fixtures: the app on a real WSGI server in a thread, and headless Chromium.

One Chromium (and one without JavaScript) serves all the tests of a process, each test getting it
as new (tests.support.browser.SharedDriver). Sign in with tests.support.browser.sign_in, which
hands the browser a signed-in session without the sign-in page; every test here is marked
`browser`."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from sibol import create_app, seed
from sibol.dashboard import seed as dashboard_seed
from sibol.extensions import db, limiter
from sibol.household import seed as household_seed
from tests.conftest import base_overrides, empty_all_tables
from tests.factories import make_account
from tests.support.browser import CHROMEDRIVER, CHROMIUM, ORIGINS, SharedDriver, make_driver
from tests.support.offline import Link

BROWSER_TESTS = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/browser is a `browser` test (a conftest's pytestmark marks nothing)."""
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)


def _browser_missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            return f"{path} not found (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture(scope="session")
def browser_binary():
    missing = _browser_missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"Browser tests need Chromium in CI: {missing}")
        pytest.skip(missing)
    return CHROMIUM


class LiveServer:
    def __init__(self, app):
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        ORIGINS.add(self.url)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.thread.join(timeout=5)


@pytest.fixture
def live_overrides() -> dict:
    """Override in a test module to change the live app's configuration."""
    return {}


@pytest.fixture
def live_app(database_url, live_overrides, tmp_path):
    overrides = base_overrides(
        database_url,
        WTF_CSRF_ENABLED=True,  # the browser goes through the real CSRF checks
        SIBOL_UPLOAD_DIR=str(tmp_path / "uploads"),
        **live_overrides,
    )
    app = create_app(overrides)
    with app.app_context():
        empty_all_tables()
        seed.reference_data()
        limiter.reset()
    return app


@pytest.fixture
def live_server(live_app):
    server = LiveServer(live_app).start()
    yield server
    server.stop()
    with live_app.app_context():
        db.session.remove()


@pytest.fixture
def in_app(live_app):
    """Run database set-up for a browser test: `with in_app(): make_account(...)`."""
    return live_app.app_context


@pytest.fixture
def seeded_user(in_app) -> str:
    """The dashboard's and the household's sample data, and an account ("Liza") to look at them
    with: its username."""
    with in_app():
        dashboard_seed.sample_data()
        household_seed.sample_data()
        return make_account(first_name="Liza").username


def _own_browser(browser_binary: str, *, javascript: bool = True):
    # A Chromium with a new profile for each test. One browser shared by a worker's tests carried
    # a test's service worker and kept pages into the next (an order-dependent failure), and a
    # reset that hung stopped the run; a new one costs a second or two.
    own = SharedDriver(lambda: make_driver(browser_binary, javascript=javascript))
    yield own.take()
    own.kill()  # not asked to quit: a browser that stopped answering would not answer that either


@pytest.fixture
def browser(browser_binary):
    """Headless Chromium, new: no cookies, nothing stored, one blank tab."""
    yield from _own_browser(browser_binary)


@pytest.fixture
def fresh_browser(browser_binary):
    """The same as `browser` (every test's Chromium is new); kept for the tests that count on a
    new profile: the DevTools protocol numbers a profile's service worker registrations from 0."""
    yield from _own_browser(browser_binary)


@pytest.fixture
def browser_nojs(browser_binary):
    """Headless Chromium with JavaScript off, new."""
    yield from _own_browser(browser_binary, javascript=False)


@pytest.fixture
def link(live_app):
    """The live app on a server the offline tests can take down and bring back on the same port
    (tests/support/offline.py), so the server is out of reach while the browser stays online."""
    server = Link(live_app)
    yield server
    server.down()
    with live_app.app_context():
        db.session.remove()
