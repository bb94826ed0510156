"""What is recorded per machine: the chemical additives put in and the waste containers filled."""

from __future__ import annotations

from datetime import date, time

from flask_babel import gettext as _
from sqlalchemy import Select, func, select

from ..data.listing import matches_any
from ..errors import Invalid
from ..extensions import db
from ..models import utcnow
from ..models.machines import CONTAINER_STATUSES, PACKAGES, ChemicalAdditive, WasteContainer
from .search import normalise_query
from .service import get_machine


def list_chemical_additives(machine_id: int | None, q: str | None = None) -> list[ChemicalAdditive]:
    if machine_id is None:
        return []
    return list(db.session.scalars(chemical_additives_query(machine_id, q).limit(500)))


def chemical_additives_query(machine_id: int | None, q: str | None = None) -> Select:
    """A machine's chemical additives matching q, newest first, unpaged (no machine: none)."""
    query = select(ChemicalAdditive).where(ChemicalAdditive.machine_id == (machine_id or 0))
    q = normalise_query(q)
    if q:
        query = query.where(
            matches_any(
                q,
                ChemicalAdditive.chemical_input,
                ChemicalAdditive.stage,
                ChemicalAdditive.person_in_charge,
                ChemicalAdditive.units,
            )
        )
    order = (ChemicalAdditive.added_on.desc(), ChemicalAdditive.added_at.desc(), ChemicalAdditive.id.desc())
    return query.order_by(*order)


def list_waste_containers(machine_id: int | None, q: str | None = None) -> list[WasteContainer]:
    if machine_id is None:
        return []
    return list(db.session.scalars(waste_containers_query(machine_id, q).limit(500)))


def waste_containers_query(machine_id: int | None, q: str | None = None) -> Select:
    """A machine's waste containers matching q, in id order, unpaged (no machine: none)."""
    query = select(WasteContainer).where(WasteContainer.machine_id == (machine_id or 0))
    q = normalise_query(q)
    if q:
        query = query.where(
            matches_any(q, WasteContainer.container_no, WasteContainer.area, WasteContainer.status)
        )
    return query.order_by(WasteContainer.id)


def _package(area: str | None) -> str:
    if area not in PACKAGES:
        raise Invalid(_("Choose an area (Package 1 to Package 4)."), field="area")
    return area


def _date(value: str | None, field: str = "startDate") -> date:
    try:
        return date.fromisoformat((value or "").strip())
    except ValueError:
        raise Invalid(_("Start Date is required (YYYY-MM-DD)."), field=field) from None


def _short(value: str | None, label: str, field: str, limit: int) -> str:
    value = " ".join((value or "").split())
    if len(value) > limit:
        raise Invalid(
            _("%(label)s must be at most %(limit)s characters.", label=label, limit=limit), field=field
        )
    return value


def add_chemical_additive(
    machine_id,
    *,
    area: str | None,
    start_date: str | None,
    chemical_input: str | None = None,
    stage: str | None = None,
    value: str | None = None,
    units: str | None = None,
    person_in_charge: str | None = None,
) -> ChemicalAdditive:
    """Records a chemical added to a machine on the start date (time: now, stored in UTC)."""
    machine = get_machine(machine_id)
    row = ChemicalAdditive(
        machine_id=machine.id,
        area=_package(area),
        added_on=_date(start_date),
        added_at=time(*utcnow().timetuple()[3:6]),
        chemical_input=_short(chemical_input, _("Chemical Input"), "chemicalInput", 100) or "Unspecified",
        stage=_short(stage, _("Stage"), "stage", 50),
        value=_short(value, _("Value"), "value", 20),
        units=_short(units, _("Units"), "units", 20),
        person_in_charge=_short(person_in_charge, _("Person in Charge"), "personInCharge", 100),
    )
    db.session.add(row)
    db.session.commit()
    return row


def add_waste_container(
    machine_id, *, area: str | None, start_date: str | None, status: str | None = None
) -> WasteContainer:
    """A new (Not Full, unless told) container numbered after the machine's last one."""
    machine = get_machine(machine_id)
    status = status or "Not Full"
    if status not in CONTAINER_STATUSES:
        raise Invalid(_("Status must be Full or Not Full."), field="status")
    row = WasteContainer(
        machine_id=machine.id,
        container_no="",
        area=_package(area),
        status=status,
        start_date=_date(start_date),
    )
    db.session.add(row)
    count = db.session.scalar(
        select(func.count()).select_from(WasteContainer).where(WasteContainer.machine_id == machine.id)
    )
    row.container_no = f"WC-{machine.id:03d}-{count:02d}"
    db.session.commit()
    return row
