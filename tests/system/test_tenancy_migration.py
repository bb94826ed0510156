"""Migration 0013_tenancy on a populated database: existing rows go to the first barangay."""

from __future__ import annotations

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from sibol import create_app
from sibol.extensions import db
from tests.conftest import base_overrides

TENANT_TABLES = (
    "machines",
    "chemical_additives",
    "machine_terms",
    "household_members",
    "rewards",
    "reward_claims",
    "maintenance_requests",
    "energy_readings",
    "areas",
)


def _populate(conn) -> None:
    def run(sql: str, **values) -> None:
        conn.execute(text(sql), values)

    run("INSERT INTO roles (id, name) VALUES (1, 'Admin')")
    run("INSERT INTO areas (name) VALUES ('Purok 1')")
    area = conn.execute(text("SELECT id FROM areas")).scalar()
    run(
        "INSERT INTO machines (name, area_id, created_at, updated_at) VALUES ('Old Dig', :a, '2026-01-01', '2026-01-01')",
        a=area,
    )
    machine = conn.execute(text("SELECT id FROM machines")).scalar()
    run(
        "INSERT INTO machine_terms (term, machine_id, shared) VALUES ('old dig', :m, 0), ('dig', :m, 0)",
        m=machine,
    )
    run(
        "INSERT INTO chemical_additives (machine_id, chemical_input, stage, value, units, area, added_on, added_at,"
        " person_in_charge, created_at) VALUES (:m, 'Lime', '', '', '', '', '2026-01-01', '08:00:00', '', '2026-01-01')",
        m=machine,
    )
    run(
        "INSERT INTO household_members (name, barangay, points, is_active, created_at) VALUES ('Cruz', '', 5, 1, '2026-01-01')"
    )
    member = conn.execute(text("SELECT id FROM household_members")).scalar()
    run(
        "INSERT INTO rewards (name, area, points_required, status, created_at) VALUES ('Rice', '', 1, 'Available', '2026-01-01')"
    )
    reward = conn.execute(text("SELECT id FROM rewards")).scalar()
    run(
        "INSERT INTO reward_claims (reward_id, member_id, points_spent, claimed_at, state) VALUES (:r, :m, 1, '2026-01-01', 'redeemed')",
        r=reward,
        m=member,
    )
    run(
        "INSERT INTO maintenance_requests (request_number, issue, priority, status, request_date, created_at, updated_at)"
        " VALUES (7, 'Leak', 'mild', 'requested', '2026-01-01', '2026-01-01', '2026-01-01')"
    )
    run("INSERT INTO energy_readings (month, kilowatts, created_at) VALUES ('2026-01-01', 40, '2026-01-01')")
    run(
        "INSERT INTO accounts (username, first_name, last_name, role_id, status, is_enabled, session_epoch, is_sso,"
        " created_at, updated_at) VALUES ('old.admin', 'Old', 'Admin', 1, 'active', 1, 0, 0, '2026-01-01', '2026-01-01')"
    )


def test_upgrade_of_an_empty_database_says_nothing_of_existing_data(fresh_database_url, capsys):
    app = create_app(base_overrides(fresh_database_url))
    with app.app_context():
        upgrade(revision="0013_tenancy")
        assert "Existing data" not in capsys.readouterr().out
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM barangays")).scalar() == 1


def test_upgrade_puts_existing_rows_in_the_first_barangay(fresh_database_url, capsys):
    app = create_app(base_overrides(fresh_database_url, SIBOL_DEFAULT_BARANGAY_NAME="Barangay Uno"))
    with app.app_context():
        upgrade(revision="0012_language")
        with db.engine.begin() as conn:
            _populate(conn)
        upgrade(revision="0013_tenancy")
        assert "Existing data was put in barangay Barangay Uno (id 1)." in capsys.readouterr().out
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT id, name, is_active FROM barangays")).all() == [
                (1, "Barangay Uno", True)
            ]
            for table in TENANT_TABLES:  # every row kept (no cascade on rebuilt tables), all in barangay 1
                rows = conn.execute(text(f"SELECT barangay_id FROM {table}")).scalars().all()  # noqa: S608
                assert rows and set(rows) == {1}, table
            assert conn.execute(text("SELECT barangay_id FROM accounts")).scalar() == 1
            assert conn.execute(text("SELECT name FROM roles WHERE id = 5")).scalar() == "City Admin"
        columns = {c["name"]: c for c in inspect(db.engine).get_columns("machines")}
        assert columns["barangay_id"]["nullable"] is False
        accounts = {c["name"]: c for c in inspect(db.engine).get_columns("accounts")}
        assert accounts["barangay_id"]["nullable"] is True  # a City Admin belongs to no barangay
        with db.engine.begin() as conn:
            # Names are unique per barangay now: the same area name in a second barangay is fine...
            conn.execute(text("INSERT INTO barangays (name, is_active) VALUES ('Barangay Dos', 1)"))
            conn.execute(text("INSERT INTO areas (name, barangay_id) VALUES ('Purok 1', 2)"))
        with pytest.raises(IntegrityError), db.engine.begin() as conn:  # ...but not twice in one
            conn.execute(text("INSERT INTO areas (name, barangay_id) VALUES ('Purok 1', 2)"))
        with pytest.raises(IntegrityError), db.engine.begin() as conn:  # a tenant row needs its barangay
            conn.execute(
                text(
                    "INSERT INTO rewards (name, area, points_required, status, created_at)"
                    " VALUES ('Oil', '', 1, 'Available', '2026-01-01')"
                )
            )
        with db.engine.begin() as conn:
            conn.execute(text("DELETE FROM areas WHERE barangay_id = 2"))
            conn.execute(text("DELETE FROM barangays WHERE id = 2"))
        downgrade(revision="0012_language")
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT COUNT(*) FROM chemical_additives")).scalar() == 1
        downgrade(revision="base")
        db.engine.dispose()


def test_upgrade_keeps_an_existing_first_barangay(fresh_database_url, capsys):
    app = create_app(base_overrides(fresh_database_url))
    with app.app_context():
        upgrade(revision="0012_language")
        with db.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO barangays (id, name) VALUES (4, 'Barangay Fortune'), (9, 'Barangay Nangka')"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO rewards (name, area, points_required, status, created_at)"
                    " VALUES ('Rice', '', 1, 'Available', '2026-01-01')"
                )
            )
        upgrade(revision="0013_tenancy")
        assert "Existing data was put in barangay Barangay Fortune (id 4)." in capsys.readouterr().out
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT barangay_id FROM rewards")).scalar() == 4
            assert conn.execute(text("SELECT COUNT(*) FROM barangays")).scalar() == 2
        downgrade(revision="base")
        db.engine.dispose()
