"""The committed migrations build the schema the models describe, on SQLite and on MariaDB."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from sibol import create_app, seed
from sibol.extensions import db
from tests.conftest import base_overrides


def test_upgrade_builds_the_models_schema_without_drift(fresh_database_url):
    app = create_app(base_overrides(fresh_database_url))
    with app.app_context():
        upgrade(revision="heads")
        with db.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, db.metadata)
        assert diff == [], f"models and migrations differ: {diff}"
        tables = set(inspect(db.engine).get_table_names())
        assert {
            "roles",
            "modules",
            "barangays",
            "areas",
            "machine_statuses",
            "accounts",
            "account_modules",
            "api_tokens",
            "machines",
        } <= tables
        seed.reference_data()
        downgrade(revision="base")
        assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
        db.engine.dispose()


def test_sqlite_runs_in_wal_mode_with_foreign_keys(app):
    if db.engine.dialect.name != "sqlite":
        pytest.skip("SQLite pragmas")
    with db.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
