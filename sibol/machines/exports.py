"""CSV exports of the SIBOL Machines tables (machines, chemical additives, waste containers):
the queries their tables page through, unpaged, and the table's columns (sibol/data/export.py)."""

from __future__ import annotations

from flask import Response
from flask_babel import lazy_gettext as _l
from sqlalchemy.orm import joinedload

from ..data.export import stream_rows, stream_scalars
from ..i18n.localtime import local_clock
from ..models import Machine
from ..models.telemetry import DeviceKey
from ..web.downloads import csv_response
from . import records, search
from .serializers import area_label

MACHINE_HEADERS = (_l("Machine ID"), _l("Machine Name"), _l("Area"), _l("Status"), _l("Last reading"))
ADDITIVE_HEADERS = (
    _l("Chemical Input"),
    _l("Stage"),
    _l("Value"),
    _l("Units"),
    _l("Date"),
    _l("Time"),
    _l("Person in Charge"),
)
CONTAINER_HEADERS = (_l("Waste Container No"), _l("Area"), _l("Status"), _l("Start Date"))


def machines_csv(q: str | None) -> Response:
    """Every machine the Machines table finds for q, with when its device last reported."""
    statement = (
        search.machines_query(q)
        .add_columns(DeviceKey.last_reading_at)
        .outerjoin(DeviceKey, DeviceKey.machine_id == Machine.id)
        .options(joinedload(Machine.area), joinedload(Machine.status))
    )

    def shape(row):
        machine, last = row
        status = machine.status.name if machine.status else "No Status"
        return (machine.id, machine.name, area_label(machine), status, last or "never")

    return csv_response("machines", MACHINE_HEADERS, stream_rows(statement), shape)


def chemical_additives_csv(machine_id: int | None, q: str | None) -> Response:
    statement = records.chemical_additives_query(machine_id, q)
    return csv_response(
        "chemical-additives",
        ADDITIVE_HEADERS,
        stream_scalars(statement),
        lambda row: (
            row.chemical_input,
            row.stage,
            row.value,
            row.units,
            row.added_on,
            local_clock(row.created_at, row.added_at),
            row.person_in_charge,
        ),
    )


def waste_containers_csv(machine_id: int | None, q: str | None) -> Response:
    statement = records.waste_containers_query(machine_id, q)
    return csv_response(
        "waste-containers",
        CONTAINER_HEADERS,
        stream_scalars(statement),
        lambda row: (row.container_no, row.area, row.status, row.start_date),
    )
