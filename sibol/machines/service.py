"""Rules of the machines feature: the machines themselves (read one, create, edit) and their
statuses. Their areas are sibol/machines/areas.py, searching them is sibol/machines/search.py;
the chemical additives and waste containers recorded per machine are sibol/machines/records.py.
"""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import select

from ..data.rows import get_by_id, get_machine
from ..errors import Invalid, NotFound
from ..extensions import db
from ..models import Area, Machine, MachineStatus
from . import areas
from .areas import add_starter_area as add_starter_area
from .areas import area_rows as area_rows
from .areas import create_area as create_area
from .areas import get_area as get_area
from .areas import retired_names as retired_names
from .areas import update_area as update_area

NAME_MAX = 100  # Machine.name is String(100)


# Reading ------------------------------------------------------------------------------------


def list_areas(*, include_retired: bool = False) -> list[Area]:
    """The areas a machine may be added to (retired ones too when asked): see areas.py."""
    return areas.list_areas(include_retired=include_retired)


def list_statuses() -> list[MachineStatus]:
    return list(db.session.scalars(select(MachineStatus).order_by(MachineStatus.id)))


def first_machine() -> Machine | None:
    return db.session.scalar(select(Machine).order_by(Machine.id).limit(1))


def find_machine(machine_id) -> Machine | None:
    """The machine chosen by a selector, or None (pages fall back to the first machine)."""
    try:
        return get_machine(machine_id)
    except NotFound:
        return None


# Writing machines ---------------------------------------------------------------------------


def _status(status_id: int | None) -> MachineStatus | None:
    if status_id is None:
        return None
    status = get_by_id(MachineStatus, status_id)
    if status is None:
        raise Invalid(_("Status not found."), field="status")
    return status


def _check_name(name: str) -> str:
    name = " ".join(name.split())
    if len(name) > NAME_MAX:
        raise Invalid(
            _("Machine Name must be at most %(name_max)s characters.", name_max=NAME_MAX), field="name"
        )
    return name


def create_machine(area_id: int, status_id: int | None = None, name: str | None = None) -> Machine:
    """A new machine; without a name it is called 'SIBOL Machine {id}'."""
    area = areas.area_for_new_work(area_id)
    status = _status(status_id)
    name = _check_name(name or "")
    machine = Machine(name=name or "SIBOL Machine", area_id=area.id, status_id=status.id if status else None)
    db.session.add(machine)
    if not name:
        db.session.flush()  # the generated name carries the id
        machine.name = f"SIBOL Machine {machine.id}"
    db.session.commit()
    return machine


def update_machine(
    machine_id: int | str, *, name: str | None, area_id: int, status_id: int | None
) -> Machine:
    """Replace the editable fields: rename (a blank name keeps the old one), move, and set the
    status (None clears it: the spec's "No Status")."""
    machine = get_machine(machine_id)
    area = areas.area_for_new_work(area_id, current=machine.area_id)  # it may stay in a retired one
    status = _status(status_id)
    machine.status_id = status.id if status else None
    name = _check_name(name or "")
    if name:
        machine.name = name
    machine.area_id = area.id
    db.session.commit()
    return machine
