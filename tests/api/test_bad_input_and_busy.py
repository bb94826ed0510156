"""Bad input and a busy database: deep JSON 400, big bodies 413, a database
locked past the wait 503 with Retry-After (API) or a friendly page, never 500."""

from __future__ import annotations

import json
import sqlite3

import pytest

from sibol.extensions import db
from tests.factories import DEFAULT_PASSWORD, make_account, make_admin
from tests.factories_auth import signup_body


def deep(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


@pytest.mark.parametrize("path", ["/api/auth/signup", "/api/auth/login", "/api/auth/forgot-password"])
def test_json_nested_5000_deep_is_a_400_naming_the_body(client, path):
    res = client.post(path, data=deep(5000), content_type="application/json")
    assert res.status_code == 400 and res.json["field"] == "body"
    assert "nested too deeply" in res.json["message"]
    wrapped = b'{"email": ' + deep(5000) + b"}"
    assert client.post(path, data=wrapped, content_type="application/json").status_code == 400


def test_deep_json_on_a_signed_in_endpoint(client, api_headers):
    headers = api_headers(make_admin())
    res = client.post(
        "/api/admin/create", data=deep(100_000), content_type="application/json", headers=headers
    )
    assert res.status_code == 400 and res.json["field"] == "body"


def test_brackets_inside_strings_do_not_count_as_depth(client):
    body = {"username": "[" * 60 + "{" * 60, "password": "x"}
    res = client.post("/api/auth/login", json=body)
    assert res.status_code == 401  # read as an ordinary (unknown) username


def test_json_body_over_a_megabyte_is_413(client):
    body = json.dumps({"email": "a@b.test", "padding": "x" * (1024 * 1024)})
    res = client.post("/api/auth/forgot-password", data=body, content_type="application/json")
    assert res.status_code == 413 and res.is_json and res.json["field"] == "body"


def test_form_over_the_size_limit_is_413(client):
    res = client.post("/signup", data={"email": "x" * (12 * 1024 * 1024)})
    assert res.status_code == 413


@pytest.fixture
def app_overrides(database_url):
    if database_url.startswith("sqlite"):
        return {"SIBOL_DB_BUSY_TIMEOUT": 0.2}
    # MariaDB: wait one second for a lock (table or row) instead of 50.
    wait = "SET SESSION lock_wait_timeout = 1, innodb_lock_wait_timeout = 1"
    return {"SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True, "connect_args": {"init_command": wait}}}


class MariaDbHolder:
    """Holds `LOCK TABLES accounts WRITE` on its own connection; execute("ROLLBACK") releases it."""

    def __init__(self):
        self.conn = db.engine.connect()
        self.conn.exec_driver_sql("LOCK TABLES accounts WRITE")
        self.in_transaction = True

    def execute(self, _statement: str) -> None:
        if self.in_transaction:
            self.conn.exec_driver_sql("UNLOCK TABLES")
            self.in_transaction = False

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def locked_database(app, user):
    """Another process holds the write lock (as a long backup or a stuck writer would)."""
    if db.engine.dialect.name != "sqlite":
        db.session.remove()
        holder = MariaDbHolder()
        yield holder
        holder.execute("ROLLBACK")
        holder.close()
        return
    holder = sqlite3.connect(db.engine.url.database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("UPDATE roles SET name = name")
    yield holder
    if holder.in_transaction:
        holder.execute("ROLLBACK")
    holder.close()


@pytest.fixture
def user(app):
    return make_account(username="waiting")


def test_sign_in_on_a_locked_database_answers_503_with_retry_after(client, user, locked_database):
    res = client.post("/api/auth/login", json={"username": "waiting", "password": DEFAULT_PASSWORD})
    assert res.status_code == 503 and res.json["code"] == "database_busy"
    assert int(res.headers["Retry-After"]) > 0 and "try again" in res.json["message"]
    page = client.post("/login", data={"username": "waiting", "password": DEFAULT_PASSWORD})
    assert page.status_code == 503 and "text/html" in page.content_type
    assert "The system is busy right now" in page.get_data(as_text=True)
    assert int(page.headers["Retry-After"]) > 0
    assert client.get("/login").status_code == 200  # pages that do not need the lock still work


def test_writes_on_a_locked_database_answer_503(client, user, locked_database):
    res = client.post("/api/auth/signup", json=signup_body("ana@example.test"))
    assert res.status_code == 503 and res.json["code"] == "database_busy"


def test_after_the_lock_is_released_sign_in_works(client, user, locked_database):
    body = {"username": "waiting", "password": DEFAULT_PASSWORD}
    assert client.post("/api/auth/login", json=body).status_code == 503
    locked_database.execute("ROLLBACK")
    assert client.post("/api/auth/login", json=body).status_code == 200
