"""Helpers for the command tests: a machine of another barangay, commands made overdue."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select, update

from sibol.devices import keys
from sibol.extensions import db
from sibol.identity import tenancy
from sibol.models import Area, Barangay, Machine, utcnow
from sibol.models.commands import Command


def foreign_machine(name: str = "Far Digester") -> tuple[Machine, str]:
    """(a machine of another barangay, its raw device key)."""
    barangay = Barangay(name="Barangay Malayo", is_active=True)
    db.session.add(barangay)
    db.session.commit()
    with tenancy.scoped(barangay.id):
        area = Area(name="Purok Malayo")
        db.session.add(area)
        db.session.commit()
        machine = Machine(name=name, area_id=area.id)
        db.session.add(machine)
        db.session.commit()
    return machine, keys.issue_key(machine.id, actor_id=None)


def make_overdue(command_id: int) -> None:
    """Move the command's deadline (delivery or answer) into the past."""
    db.session.execute(
        update(Command).where(Command.id == command_id).values(expires_at=utcnow() - timedelta(seconds=1))
    )
    db.session.commit()


def command_count(machine_id: int | None = None) -> int:
    query = select(func.count()).select_from(Command)
    if machine_id is not None:
        query = query.where(Command.machine_id == machine_id)
    db.session.rollback()  # a fresh read
    return db.session.scalar(query) or 0
