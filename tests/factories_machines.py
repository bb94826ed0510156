"""make_* helpers for the machines feature."""

from __future__ import annotations

from datetime import date, time

from sqlalchemy import select

from sibol.extensions import db
from sibol.models import Area, Machine, MachineStatus
from sibol.models.machines import ChemicalAdditive, WasteContainer


def area_id(name: str = "Purok 1") -> int:
    return db.session.scalar(select(Area.id).where(Area.name == name))


def status_id(name: str = "Active") -> int:
    return db.session.scalar(select(MachineStatus.id).where(MachineStatus.name == name))


def make_additive(machine: Machine, **fields) -> ChemicalAdditive:
    fields.setdefault("chemical_input", "Lime")
    fields.setdefault("stage", "Filtering")
    fields.setdefault("value", "1")
    fields.setdefault("units", "kg")
    fields.setdefault("area", "Package 1")
    fields.setdefault("added_on", date(2026, 1, 5))
    fields.setdefault("added_at", time(9, 30))
    fields.setdefault("person_in_charge", "Juan Dela Cruz")
    row = ChemicalAdditive(machine_id=machine.id, **fields)
    db.session.add(row)
    db.session.commit()
    return row


def make_container(machine: Machine, **fields) -> WasteContainer:
    fields.setdefault("container_no", f"WC-{machine.id:03d}-99")
    fields.setdefault("area", "Package 2")
    fields.setdefault("status", "Full")
    fields.setdefault("start_date", date(2026, 1, 6))
    row = WasteContainer(machine_id=machine.id, **fields)
    db.session.add(row)
    db.session.commit()
    return row
