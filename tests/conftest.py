"""Fixtures: a fresh database per test (SQLite file, or MariaDB with SIBOL_TEST_DATABASE_URL).

Markers: `db` is put here on every test that talks to a database, `browser` on every test under
tests/browser (tests/browser/conftest.py). `make test-db` reruns `-m "db and not browser"` on MariaDB.
`serial` marks a test that cannot share the machine with other tests: `make test` runs the rest
in parallel (pytest-xdist, scripts/pytest.sh) and then these alone.

In parallel, each worker (gw0, gw1, ...) has its own of everything: its temporary folders (so its
SQLite files and instance folders), a MariaDB database named after the worker's
(`<name>_gw0`, created and dropped here), its ports (`tests.support.servers.free_port`), and the
Redis, Mosquitto, SMTP and app servers its tests start on them.

Accounts, one name for one meaning (a module may override the account fixture with one it names;
the others follow it):

- `admin`, `staff`: the account (an Admin, a Staff member);
- `admin_client`, `staff_client`: the test client, signed in as that account through /login;
- `admin_headers`, `staff_headers`: bearer headers of that account, `{"Authorization": ...}`.

`login(account)` signs the test client in as any other account, `api_headers(account)` gives any
account's bearer headers.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, delete, text
from sqlalchemy.engine import make_url

# A developer's .env configures their own console, never the tests (nor the servers they start,
# which inherit this): set before sibol.config is first imported.
os.environ["FLASK_SKIP_DOTENV"] = "1"

from sibol import create_app, seed
from sibol.extensions import db, limiter
from tests.auth_oauth_provider import OAuthProvider

TEST_DB_ENV = "SIBOL_TEST_DATABASE_URL"
SYSTEM_TESTS = Path(__file__).parent / "system"
# pytest-xdist's name for this process (gw0, gw1, ...); "" when the tests run in one process.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def _is_server_url(url: str) -> bool:
    return url.startswith(("mysql", "mariadb"))


# A worker's MariaDB databases are its own: every name derived from SIBOL_TEST_DATABASE_URL
# (the session's schema, tests.support.servers.fresh_database's) carries the worker's name.
if WORKER and _is_server_url(os.environ.get(TEST_DB_ENV, "")):
    _shared = make_url(os.environ[TEST_DB_ENV])
    os.environ[TEST_DB_ENV] = _shared.set(database=f"{_shared.database}_{WORKER}").render_as_string(
        hide_password=False
    )


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


def _server_database(url: str, statement: str) -> None:
    """CREATE or DROP the database `url` names, on its server."""
    parsed = make_url(url)
    # The server without a database (URL.set(database=None) would keep the name).
    server = create_engine(parsed._replace(database=None))
    with server.begin() as conn:
        conn.execute(text(statement.format(name=parsed.database)))
    server.dispose()


@pytest.fixture(scope="session")
def database_url(tmp_path_factory) -> str:
    """One schema per test session; each test empties it (much faster than drop/create on MySQL).
    A worker's MariaDB database is created here and dropped at the end."""
    url = test_database_url(tmp_path_factory)
    if _is_server_url(url):
        _server_database(url, "CREATE DATABASE IF NOT EXISTS `{name}` CHARACTER SET utf8mb4")
    app = create_app(base_overrides(url))
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield url
    with app.app_context():
        db.drop_all()
        db.engine.dispose()
    if WORKER and _is_server_url(url):
        _server_database(url, "DROP DATABASE IF EXISTS `{name}`")


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


@pytest.fixture
def admin(app):
    """An Admin account."""
    from tests.factories import make_admin

    return make_admin()


@pytest.fixture
def admin_client(client, login, admin):
    """The test client signed in as `admin`."""
    login(admin)
    return client


@pytest.fixture
def admin_headers(api_headers, admin) -> dict:
    """Bearer headers of `admin`."""
    return api_headers(admin)


@pytest.fixture
def staff(app):
    """A Staff account."""
    from sibol.models import RoleId
    from tests.factories import make_account

    return make_account(role=RoleId.STAFF)


@pytest.fixture
def staff_client(client, login, staff):
    """The test client signed in as `staff`."""
    login(staff)
    return client


@pytest.fixture
def staff_headers(api_headers, staff) -> dict:
    """Bearer headers of `staff`."""
    return api_headers(staff)


@pytest.fixture(scope="module")
def provider() -> Iterator[OAuthProvider]:
    """A local OAuth provider standing in for Google, on a real HTTP server in a thread."""
    p = OAuthProvider().start()
    yield p
    p.stop()
