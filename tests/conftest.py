"""Fixtures: a fresh database per test (SQLite file, or MariaDB with SIBOL_TEST_DATABASE_URL).

Markers: `db` is put here on every test that talks to a database, `browser` on every test under
tests/browser (tests/browser/conftest.py). `make test-db` reruns `-m "db and not browser"` on MariaDB.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import delete

# A developer's .env configures their own console, never the tests (nor the servers they start,
# which inherit this): set before sibol.config is first imported.
os.environ["FLASK_SKIP_DOTENV"] = "1"

from sibol import create_app, seed
from sibol.extensions import db, limiter
from tests.auth_oauth_provider import OAuthProvider

TEST_DB_ENV = "SIBOL_TEST_DATABASE_URL"
SYSTEM_TESTS = Path(__file__).parent / "system"


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `db` the tests that use the session database (`app`, `client` and `live_app` build on
    `database_url`) and the system tests (each starts servers on a database of its own)."""
    for item in items:
        if "database_url" in getattr(item, "fixturenames", ()) or SYSTEM_TESTS in item.path.parents:
            item.add_marker(pytest.mark.db)


def test_database_url(tmp_path_factory) -> str:
    url = os.environ.get(TEST_DB_ENV)
    if url:
        from sibol.config import database_url

        return database_url(url, "")
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'test.sqlite3'}"


def base_overrides(url: str, **extra) -> dict:
    overrides = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "SQLALCHEMY_DATABASE_URI": url,
        "WTF_CSRF_ENABLED": False,
        "SIBOL_IGNORE_HOT_FILE": True,
        "SIBOL_SAMPLE_DATA": False,
        "MAIL_SERVER": None,
        "MAIL_SUPPRESS_SEND": True,
        "SIBOL_BASE_URL": "http://localhost",
        "RATELIMIT_STORAGE_URI": "memory://",
    }
    overrides.update(extra)
    return overrides


@pytest.fixture(scope="session")
def database_url(tmp_path_factory) -> str:
    """One schema per test session; each test empties it (much faster than drop/create on MySQL)."""
    url = test_database_url(tmp_path_factory)
    app = create_app(base_overrides(url))
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield url
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


def empty_all_tables() -> None:
    for table in reversed(db.metadata.sorted_tables):
        db.session.execute(delete(table))
    db.session.commit()


@pytest.fixture
def app_overrides() -> dict:
    """Override in a test module to change the app's configuration."""
    return {}


@pytest.fixture
def app(database_url, app_overrides, tmp_path):
    app = create_app(
        base_overrides(database_url, SIBOL_UPLOAD_DIR=str(tmp_path / "uploads"), **app_overrides)
    )
    with app.app_context():
        empty_all_tables()
        seed.reference_data()
        limiter.reset()
        yield app
        db.session.remove()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def api_headers(app):
    """api_headers(account) -> {'Authorization': 'Bearer ...'} with a fresh token."""
    from tests.factories import token_for

    def build(account) -> dict:
        return {"Authorization": f"Bearer {token_for(account)}"}

    return build


@pytest.fixture
def login(client):
    """login(account): signs the test client in through the /login form."""
    from tests.factories import DEFAULT_PASSWORD

    def do(account, password: str = DEFAULT_PASSWORD):
        res = client.post("/login", data={"username": account.username, "password": password})
        assert res.status_code == 302, res.get_data(as_text=True)
        return res

    return do


@pytest.fixture(scope="module")
def provider() -> Iterator[OAuthProvider]:
    """A local OAuth provider standing in for Google, on a real HTTP server in a thread."""
    p = OAuthProvider().start()
    yield p
    p.stop()
