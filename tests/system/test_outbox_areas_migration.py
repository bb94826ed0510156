"""Migration 0017_outbox_areas on a populated database: a barangay with no area gets one (its
staff could add no machine before), one with areas keeps exactly those; and back down."""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from sibol import create_app
from sibol.extensions import db
from tests.conftest import base_overrides


def test_a_barangay_without_areas_gets_one_to_rename(fresh_database_url):
    app = create_app(base_overrides(fresh_database_url))
    with app.app_context():
        upgrade(revision="0015_mqtt")
        with db.engine.begin() as conn:
            conn.execute(
                text("INSERT INTO barangays (name, is_active) VALUES ('Old One', 1), ('New One', 1)")
            )
            old = conn.execute(text("SELECT id FROM barangays WHERE name = 'Old One'")).scalar()
            conn.execute(
                text("INSERT INTO areas (name, barangay_id) VALUES ('Sitio A', :b), ('Sitio B', :b)"),
                {"b": old},
            )
        upgrade(revision="0017_outbox_areas")
        with db.engine.connect() as conn:
            areas = conn.execute(
                text(
                    "SELECT b.name, a.name, a.retired_at FROM areas a JOIN barangays b ON b.id = a.barangay_id"
                    " ORDER BY b.name, a.name"
                )
            ).all()
        assert [tuple(row) for row in areas] == [
            ("Barangay Fortune", "Purok 1", None),  # made by 0013_tenancy, with no area
            ("New One", "Purok 1", None),
            ("Old One", "Sitio A", None),
            ("Old One", "Sitio B", None),
        ]
        assert "mail_outbox" in inspect(db.engine).get_table_names()
        downgrade(revision="0015_mqtt")
        assert "mail_outbox" not in inspect(db.engine).get_table_names()
        assert "retired_at" not in {c["name"] for c in inspect(db.engine).get_columns("areas")}
        db.engine.dispose()
