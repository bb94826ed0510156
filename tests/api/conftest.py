"""Fixtures shared by the API and page tests (the Flask test client, no real servers)."""

from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from sibol.dashboard import seed as dashboard_seed
from sibol.household import seed as household_seed
from tests.api.tenant_world import build_world
from tests.factories_admin import fresh_identity_per_request
from tests.support.smtp import smtp_server


@pytest.fixture
def fresh_identity(app) -> None:
    """Each request starts without the previous caller; for modules that mix bearer and cookie
    callers: `pytestmark = pytest.mark.usefixtures("fresh_identity")`."""
    fresh_identity_per_request(app)


@pytest.fixture(scope="module")
def smtp():
    """A real SMTP server on a free loopback port for the module, and its inbox: (controller, inbox).
    A module that sends through it sets `app_overrides` to `mail_settings(controller.port)`."""
    yield from smtp_server()


@pytest.fixture
def seeded(app) -> None:
    """The dashboard's and the household's sample data (the seeded month is March 2025)."""
    dashboard_seed.sample_data()
    household_seed.sample_data()


@pytest.fixture
def world(app):
    """Barangays A and B, each with a full set of records and an account of every role
    (tests/api/tenant_world.py); test_tenancy.py names a smaller world of its own."""
    return build_world(app)


@pytest.fixture
def server(app):
    """The test's app on a real HTTP server in a thread (a device simulator talks to it): its URL."""
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{http.server_port}"
    http.shutdown()
    thread.join(timeout=5)
