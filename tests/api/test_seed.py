from sqlalchemy import func, select

from sibol import seed
from sibol.extensions import db
from sibol.identity.passwords import verify_password
from sibol.models import Account, Area, Barangay, Machine, MachineStatus, Module, Role, RoleId


def test_reference_data_has_the_spec_ids_and_is_idempotent(app):
    seed.reference_data()
    seed.reference_data()
    assert {r.id: r.name for r in db.session.scalars(select(Role))} == {
        1: "Admin",
        2: "Barangay Staff",
        3: "Operator",
        4: "Household",
        5: "City Admin",
    }
    modules = {m.id: (m.name, m.path) for m in db.session.scalars(select(Module))}
    assert modules == {
        1: ("Dashboard", "/dashboard"),
        2: ("SIBOL Machines", "/sibol-machines"),
        3: ("Maintenance", "/maintenance"),
        4: ("Household", "/household"),
        5: ("Chat Support", "/chat-support"),
        6: ("Admin", "/admin"),
    }
    for model in (Barangay, Area, MachineStatus):
        names = list(db.session.scalars(select(model.name)))
        assert names and len(names) == len(set(names))


def test_sample_data_is_seeded_once(app):
    seed.sample_data()
    count = db.session.scalar(select(func.count(Machine.id)))
    seed.sample_data()
    assert count > 0
    assert db.session.scalar(select(func.count(Machine.id))) == count


def test_first_admin_gets_a_generated_password_printed_once(app):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["create-admin"])
    assert result.exit_code == 0, result.output
    assert "Created administrator 'admin' with password: " in result.output
    password = result.output.split("with password: ")[1].split()[0]
    admin = db.session.scalar(select(Account).where(Account.username == "admin"))
    assert admin.role_id == RoleId.ADMIN and admin.is_active
    assert admin.module_ids == {1, 2, 3, 4, 5, 6}
    assert verify_password(admin.password_hash, password)
    assert password not in admin.password_hash
    again = runner.invoke(args=["seed", "--no-sample"])
    assert "already exists" in again.output and "password" not in again.output.replace("already", "")
    assert db.session.scalar(select(func.count(Account.id))) == 1


def test_admin_from_environment_settings(app):
    app.config.update(
        SIBOL_ADMIN_USERNAME="chief", SIBOL_ADMIN_PASSWORD="Given-pass1", SIBOL_ADMIN_EMAIL="c@x.test"
    )
    result = app.test_cli_runner().invoke(args=["seed"])
    assert "with the given password" in result.output
    chief = db.session.scalar(select(Account).where(Account.username == "chief"))
    assert chief.email == "c@x.test" and verify_password(chief.password_hash, "Given-pass1")


def test_setup_migrates_and_seeds_an_empty_database(tmp_path):
    from sibol import create_app
    from tests.conftest import base_overrides

    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    fresh = create_app(base_overrides(url, SIBOL_SAMPLE_DATA=True))
    runner = fresh.test_cli_runner()
    first = runner.invoke(args=["setup"])
    assert first.exit_code == 0, first.output
    assert "Created administrator 'admin'" in first.output
    second = runner.invoke(args=["setup"])
    assert second.exit_code == 0 and "already exists" in second.output
    with fresh.app_context():
        assert db.session.scalar(select(func.count(Machine.id))) == len(seed.SAMPLE_MACHINES)
        db.engine.dispose()
