"""E-mail addresses unique without regard to case (stored lower-cased, migration 0008 resolves
old duplicates), and `flask create-admin` when the only admin is disabled."""

from __future__ import annotations

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import select, text

from sibol import create_app, seed
from sibol.extensions import db
from sibol.models import Account, RoleId
from tests.conftest import base_overrides
from tests.factories import make_admin
from tests.factories_auth import signup_body
from tests.support.servers import drop_database, fresh_database


def test_signup_stores_the_email_lower_cased_and_refuses_a_case_variant(client):
    first = client.post("/api/auth/signup", json=signup_body("Case@Example.TEST"))
    assert first.status_code == 201 and first.json["email"] == "case@example.test"
    again = client.post("/api/auth/signup", json=signup_body("case@example.test"))
    assert again.status_code == 409 and again.json["field"] == "email"
    assert (
        db.session.scalar(select(Account.email).where(Account.email.like("%xample%"))) == "case@example.test"
    )


def test_admin_create_refuses_a_case_variant(client, api_headers):
    admin = make_admin(email="boss@example.test")
    h = api_headers(admin)
    body = {"FirstName": "Ana", "LastName": "Cruz", "Roles": 4, "Password": "Str0ng!pass"}
    assert (
        client.post("/api/admin/create", json={**body, "Email": "Ana@Example.test"}, headers=h).status_code
        == 201
    )
    dup = client.post("/api/admin/create", json={**body, "Email": "ana@EXAMPLE.TEST"}, headers=h)
    assert dup.status_code == 409
    assert (
        db.session.scalar(select(Account.email).where(Account.username == "ana.cruz")) == "ana@example.test"
    )


def test_create_admin_helps_when_the_only_admin_is_disabled(app):
    old = make_admin(username="admin", email="admin@localhost")
    old.is_enabled = False
    db.session.commit()
    result = app.test_cli_runner().invoke(args=["create-admin"])
    assert result.exit_code == 0, result.output
    assert "Created administrator 'admin2' with password: " in result.output
    new = db.session.scalar(select(Account).where(Account.username == "admin2"))
    assert new.is_active and new.role_id == RoleId.ADMIN and 6 in new.module_ids
    # Now an enabled admin exists: nothing more is created.
    assert "already exists" in app.test_cli_runner().invoke(args=["create-admin"]).output


def test_create_admin_does_not_count_an_admin_without_the_admin_module(app):
    make_admin(username="admin", modules=[1, 2])
    result = app.test_cli_runner().invoke(args=["create-admin"])
    assert "Created administrator 'admin2'" in result.output


@pytest.fixture
def migrated_to_0007(tmp_path):
    url = fresh_database(tmp_path, "emailcase")
    app = create_app(base_overrides(url))
    with app.app_context():
        upgrade(revision="0007_maintenance")
        seed.reference_data()
        yield app
        downgrade(revision="base")
        db.engine.dispose()
    drop_database(url)


def test_migration_lower_cases_emails_and_renames_later_duplicates(migrated_to_0007, capsys):
    insert = text(
        "INSERT INTO accounts (id, username, first_name, last_name, email, role_id, status, is_enabled,"
        " session_epoch, is_sso, created_at, updated_at)"
        " VALUES (:id, :u, 'A', 'B', :e, 4, 'active', 1, 0, 0, '2026-01-01', '2026-01-01')"
    )
    emails = {1: "Case@Example.TEST", 2: "other@example.test"}
    if db.engine.dialect.name == "sqlite":  # MariaDB's collation never let the variants in
        emails.update({3: "case@example.test", 4: "CASE@example.test"})
    with db.engine.begin() as conn:
        for account_id, email in emails.items():
            conn.execute(insert, {"id": account_id, "u": f"user{account_id}", "e": email})
    upgrade(revision="0008_hardening")
    with db.engine.connect() as conn:
        stored = dict(conn.execute(text("SELECT id, email FROM accounts ORDER BY id")).all())
    out = capsys.readouterr().out
    assert stored[1] == "case@example.test" and stored[2] == "other@example.test"
    if db.engine.dialect.name == "sqlite":
        assert stored[3] == "case+dup3@example.test" and stored[4] == "case+dup4@example.test"
        assert "account 3 had 'case@example.test', a case variant of account 1's address" in out
        assert "1 e-mail address(es) lower-cased, 2 duplicate(s) renamed" in out
    else:
        assert "1 e-mail address(es) lower-cased, 0 duplicate(s) renamed" in out
