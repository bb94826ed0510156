"""sibol/identity/tenancy/ on its own: what a scope does to ORM reads, bulk writes and new rows."""

from __future__ import annotations

from datetime import date, time

import pytest
from sqlalchemy import delete, func, select, update

from sibol.errors import NotFound
from sibol.extensions import db
from sibol.identity import tenancy
from sibol.models import Area, Barangay, Machine
from sibol.models.machines import ChemicalAdditive, MachineTerm
from tests.factories import make_machine


@pytest.fixture
def two(app):
    a = db.session.scalar(select(Barangay.id).order_by(Barangay.id))
    b = Barangay(name="Barangay Dos")
    db.session.add(b)
    db.session.commit()
    db.session.add(Area(name="Purok 1", barangay_id=b.id))
    db.session.commit()
    m_a = make_machine("Alpha One").id
    with tenancy.scoped(b.id):
        m_b = make_machine("Bravo One").id
    return {"a": a, "b": b.id, "m_a": m_a, "m_b": m_b}


def test_reads_counts_and_get_are_limited_to_the_scope(two):
    with tenancy.scoped(two["a"]):
        assert db.session.scalars(select(Machine.name)).all() == ["Alpha One"]
        assert db.session.scalar(select(func.count()).select_from(MachineTerm)) == 2  # "alpha one", "one"
        assert db.session.get(Machine, two["m_b"]) is None
        assert db.session.get(Machine, two["m_a"]).name == "Alpha One"
        assert db.session.scalars(select(Barangay.id)).all() == [two["a"]]
    # Unscoped again: everything, and the object hidden meanwhile is back in the session.
    assert db.session.scalar(select(func.count(Machine.id))) == 2
    assert db.session.get(Machine, two["m_b"]).name == "Bravo One"


def test_bulk_update_and_delete_touch_only_the_scope(two):
    with tenancy.scoped(two["a"]):
        db.session.execute(update(Machine).values(name="Renamed"))
        db.session.execute(delete(ChemicalAdditive))
        db.session.commit()
    db.session.expire_all()
    assert db.session.get(Machine, two["m_a"]).name == "Renamed"
    assert db.session.get(Machine, two["m_b"]).name == "Bravo One"


def test_new_rows_are_stamped_and_another_barangays_row_is_refused(two):
    with tenancy.scoped(two["b"]):
        area_b = db.session.scalar(select(Area.id))
        machine = Machine(name="Charlie", area_id=area_b)
        db.session.add(machine)
        db.session.commit()
        assert machine.barangay_id == two["b"]
        db.session.add(Machine(name="Intruder", area_id=area_b, barangay_id=two["a"]))
        with pytest.raises(NotFound):
            db.session.flush()
        db.session.rollback()
    # Unscoped: a child takes its parent's barangay (a chemical additive of B's machine).
    from datetime import date, time

    row = ChemicalAdditive(
        machine_id=two["m_b"], chemical_input="Lime", added_on=date(2026, 1, 1), added_at=time(8)
    )
    db.session.add(row)
    db.session.commit()
    assert row.barangay_id == two["b"]


def test_unscoped_rows_without_a_parent_go_to_the_first_barangay(app):
    from sibol.models.household import Reward

    reward = Reward(name="Rice", points_required=1)
    db.session.add(reward)
    db.session.commit()
    assert reward.barangay_id == tenancy.first_barangay_id()


def test_the_first_barangay_is_created_when_there_is_none(app):
    from sibol.models import Account, RoleId
    from tests.conftest import empty_all_tables

    empty_all_tables()
    from sibol.seed import reference_data

    reference_data()
    assert db.session.scalars(select(Barangay.name)).all() == [app.config["SIBOL_DEFAULT_BARANGAY_NAME"]]
    db.session.execute(delete(Area))
    db.session.execute(delete(Barangay))
    db.session.commit()
    account = Account(username="x1", role_id=int(RoleId.STAFF), status="active")
    db.session.add(account)
    db.session.commit()
    assert db.session.get(Barangay, account.barangay_id).name == "Barangay Fortune"


def test_create_city_admin_command(app):
    from sibol.models import Account, RoleId

    runner = app.test_cli_runner()
    result = runner.invoke(args=["create-city-admin", "mayor", "--email", "Mayor@City.test"])
    assert result.exit_code == 0 and "Created City Admin 'mayor' with password: " in result.output
    account = db.session.scalar(select(Account).where(Account.username == "mayor"))
    assert (account.role_id, account.barangay_id, account.email) == (
        RoleId.CITY_ADMIN,
        None,
        "mayor@city.test",
    )
    assert sorted(account.module_ids) == [1, 2, 3, 4, 5, 6]
    again = runner.invoke(args=["create-city-admin", "MAYOR"])
    assert again.exit_code != 0 and "taken" in again.output


def test_readings_and_rollups_are_scoped_through_their_machine(two):
    """Telemetry rows have no barangay column: their machine's barangay scopes them, also in
    aggregates over every machine (the dashboard's kWh). Read in both scopes, in turn, so the
    statement cached for the first barangay is not answered with its value for the second."""
    from datetime import datetime

    from sibol.models.telemetry import Reading, Rollup

    ts = datetime(2026, 1, 5, 8)
    for machine, watts in ((two["m_a"], 100.0), (two["m_b"], 7000.0)):
        db.session.add(Reading(machine_id=machine, ts=ts, voltage_v=watts, current_a=1.0))
        db.session.add(
            Rollup(
                machine_id=machine,
                period="h",
                start=ts,
                power_w_min=watts,
                power_w_max=watts,
                power_w_sum=watts,
                power_w_n=1,
            )
        )
    db.session.commit()
    for _round in range(2):
        for scope, machine, watts in ((two["a"], two["m_a"], 100.0), (two["b"], two["m_b"], 7000.0)):
            with tenancy.scoped(scope):
                assert db.session.scalar(select(func.sum(Rollup.power_w_sum))) == watts
                assert db.session.scalars(select(Rollup.machine_id)).all() == [machine]
                assert db.session.scalars(select(Reading.voltage_v)).all() == [watts]
                assert db.session.scalar(select(func.count()).select_from(Reading)) == 1
                other = two["m_b"] if machine == two["m_a"] else two["m_a"]
                assert db.session.get(Rollup, (other, "h", ts)) is None
    assert db.session.scalar(select(func.sum(Rollup.power_w_sum))) == 7100.0


def test_a_scoped_write_cannot_point_a_row_at_another_barangays_row(two):
    """Defence in depth: whatever a service forgot to check, the flush refuses a foreign key to a
    row the scope cannot see, on a new row and on a changed one."""
    with tenancy.scoped(two["b"]):
        area_b = db.session.scalar(select(Area.id))
    with tenancy.scoped(two["a"]):
        db.session.add(Machine(name="Cross", area_id=area_b))
        with pytest.raises(NotFound):
            db.session.flush()
        db.session.rollback()
    with tenancy.scoped(two["a"]):
        machine = db.session.get(Machine, two["m_a"])
        machine.area_id = area_b
        with pytest.raises(NotFound):
            db.session.flush()
        db.session.rollback()
    with tenancy.scoped(two["a"]):
        db.session.add(
            ChemicalAdditive(
                machine_id=two["m_b"], chemical_input="Lime", added_on=date(2026, 1, 5), added_at=time(8, 0)
            )
        )
        with pytest.raises(NotFound):
            db.session.flush()
        db.session.rollback()
    # The same rows within one barangay are written as before.
    with tenancy.scoped(two["a"]):
        area_a = db.session.get(Machine, two["m_a"]).area_id
        db.session.add(Machine(name="Same", area_id=area_a))
        db.session.commit()
    assert db.session.scalar(select(func.count(Machine.id)).where(Machine.name == "Same")) == 1
