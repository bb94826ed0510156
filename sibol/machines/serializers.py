"""Spec spellings (section 3) of machines, statuses and areas; only here."""

from __future__ import annotations

from ..models import Area, Machine, MachineStatus
from ..models.machines import ChemicalAdditive, WasteContainer


def area_label(machine: Machine) -> str:
    """The area's name, else 'Area {id}' (spec: the Area column's fallback)."""
    return machine.area.name if machine.area and machine.area.name else f"Area {machine.area_id}"


def machine_json(machine: Machine) -> dict:
    return {
        "machine_id": machine.id,
        "Name": machine.name,
        "Area_id": machine.area_id,
        "Area_Name": machine.area.name if machine.area else None,
        "status_id": machine.status_id,
        "status_name": machine.status.name if machine.status else None,
    }


def machine_row_json(row) -> dict:
    """machine_json from a row of search.plain_list() (id, name, area id and name, status id and
    name): the same fields in the same order, without a Machine object."""
    machine_id, name, area_id, area_name, status_id, status_name = row
    return {
        "machine_id": machine_id,
        "Name": name,
        "Area_id": area_id,
        "Area_Name": area_name,
        "status_id": status_id,
        "status_name": status_name,
    }


def status_json(status: MachineStatus) -> dict:
    return {"Mach_status_id": status.id, "Status": status.name}


def area_json(area: Area, *, managed: bool = False) -> dict:
    """The spec's area option; `managed` adds whether it is retired (lists with ?all=1, and
    the answers of add, rename and retire)."""
    option = {"Area_id": area.id, "Area_Name": area.name}
    if managed:
        retired_at = area.retired_at.isoformat(timespec="seconds") + "Z" if area.retired_at else None
        option.update(retired=retired_at is not None, retiredAt=retired_at)
    return option


def chemical_additive_json(row: ChemicalAdditive) -> dict:
    return {
        "id": row.id,
        "machineId": row.machine_id,
        "chemicalInput": row.chemical_input,
        "stage": row.stage,
        "value": row.value,
        "units": row.units,
        "area": row.area,
        "date": row.added_on.isoformat(),
        "time": row.added_at.strftime("%H:%M"),
        "personInCharge": row.person_in_charge,
    }


def waste_container_json(row: WasteContainer) -> dict:
    return {
        "id": row.id,
        "machineId": row.machine_id,
        "wasteContainerNo": row.container_no,
        "area": row.area,
        "status": row.status,
        "startDate": row.start_date.isoformat(),
    }
