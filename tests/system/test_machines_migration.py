"""Migration 0005 indexes the names of machines that existed before it."""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from sibol import create_app
from sibol.extensions import db
from tests.conftest import base_overrides


def test_upgrade_backfills_search_terms(fresh_database_url):
    app = create_app(base_overrides(fresh_database_url))
    with app.app_context():
        upgrade(revision="0002_account_tokens")
        with db.engine.begin() as conn:
            conn.execute(text("INSERT INTO areas (name) VALUES ('Purok 1')"))
            area = conn.execute(text("SELECT id FROM areas")).scalar()
            conn.execute(
                text(
                    "INSERT INTO machines (name, area_id, created_at, updated_at) "
                    "VALUES ('Old Dig dig', :a, '2026-01-01', '2026-01-01')"
                ),
                {"a": area},
            )
        upgrade(revision="0005_machines")
        with db.engine.connect() as conn:
            rows = conn.execute(text("SELECT term, shared FROM machine_terms ORDER BY term")).all()
        assert [tuple(r) for r in rows] == [("dig", 3), ("dig dig", 0), ("old dig dig", 0)]
        downgrade(revision="base")
        db.engine.dispose()
