"""/api/machines*: the machines list (plain, or paged and searched), create, update, the area and
status options (areas are also added, renamed and retired here, by an Admin), and the chemical
additives and waste containers of a machine."""

from __future__ import annotations

from flask import Blueprint, request
from flask_babel import gettext as _

from ..api import int_field, json_body, pick, text_field
from ..data.export import stream_rows, wants_csv
from ..data.listing import page_args, page_json
from ..errors import Invalid
from ..i18n.languages import bound_gettext
from ..identity.access import module_required
from ..models import ModuleId, utcnow
from ..telemetry.service import last_reading_json, open_alert_counts
from ..web.downloads import json_list_response
from . import areas as area_service
from . import exports, records, search, service
from .serializers import (
    area_json,
    chemical_additive_json,
    machine_json,
    machine_row_json,
    status_json,
    waste_container_json,
)

bp = Blueprint("machines", __name__)

PAGING_ARGS = ("q", "page", "per_page")
PLAIN_LIST_CHUNK = 2_000  # machines per database fetch and per piece of the streamed plain list


@bp.get("/machines")
@module_required(ModuleId.MACHINES)
def list_machines():
    """No parameters: the spec's plain list of every machine, streamed as it is read (compressed
    when the client accepts gzip or Brotli). With q, page or per_page: one page,
    {data, total, page, per_page}; `count=0` skips the total (type-ahead). format=csv (or Accept:
    text/csv): every machine matching q as a CSV file."""
    if wants_csv():
        return exports.machines_csv(_query())
    if not any(name in request.args for name in PAGING_ARGS):
        rows = stream_rows(search.plain_list(), PLAIN_LIST_CHUNK)
        return json_list_response(rows, machine_row_json, PLAIN_LIST_CHUNK)
    page, per_page = page_args(default_per_page=10)
    q = request.args.get("q", "")
    with_total = request.args.get("count", "1") != "0"
    result = search.search_machines(q, page, per_page, with_total=with_total, as_rows=search.listing_columns)
    now, gettext = utcnow(), bound_gettext()
    open_alerts = open_alert_counts([row.machine_id for row in result.rows])
    body = page_json(result, lambda row: _page_row(row, now, gettext, open_alerts), success=False)
    if not with_total:
        body["total"] = None
    return body


@bp.post("/machines")
@module_required(ModuleId.MACHINES)
def create_machine():
    body = json_body()
    area_id = int_field(body, "areaId", "Area_id", label=_("Area"))
    status_id = int_field(body, "status", "status_id", label=_("Status"), required=False)
    name = text_field(
        body, "name", "Name", label=_("Machine Name"), required=False, max_length=service.NAME_MAX
    )
    machine = service.create_machine(area_id, status_id, name)
    return {
        "success": True,
        "message": _("Machine created successfully!"),
        "data": machine_json(machine),
    }, 201


@bp.get("/machines/<machine_id>")
@module_required(ModuleId.MACHINES)
def show_machine(machine_id: str):
    return {"success": True, "data": machine_json(service.get_machine(machine_id))}


@bp.put("/machines/<machine_id>")
@module_required(ModuleId.MACHINES)
def update_machine(machine_id: str):
    service.get_machine(machine_id)  # an unknown id is 404 before the body is judged
    body = json_body()
    name = text_field(
        body, "name", "Name", label=_("Machine Name"), required=False, max_length=service.NAME_MAX
    )
    area_id = int_field(body, "areaId", "Area_id", label=_("Area"))
    # PUT replaces the editable fields: a missing status clears it, as null or "" do (the
    # spec's client sends no status for "No Status"; spec section 4).
    status_id = int_field(body, "status", "status_id", label=_("Status"), required=False)
    machine = service.update_machine(machine_id, name=name, area_id=area_id, status_id=status_id)
    return {"success": True, "message": _("Machine updated successfully!"), "data": machine_json(machine)}


@bp.get("/machines/statuses")
@module_required(ModuleId.MACHINES)
def statuses():
    return [status_json(s) for s in service.list_statuses()]


@bp.get("/machines/areas")
@module_required(ModuleId.MACHINES)
def areas():
    """The areas a machine may be added to; `all=1` lists the retired ones too."""
    include_retired = request.args.get("all", "0") == "1"
    found = service.list_areas(include_retired=include_retired)
    return [area_json(a, managed=include_retired) for a in found]


@bp.post("/machines/areas")
@module_required(ModuleId.ADMIN, action="areas.manage")
def create_area():
    """A new area of the caller's barangay (the Admin's; a City Admin's chosen one)."""
    body = json_body()
    name = pick(body, "name", "Area_Name")
    area = area_service.create_area(name if name is not None else "")
    return {
        "success": True,
        "message": _("Area %(name)s added.", name=area.name),
        "data": area_json(area, managed=True),
    }, 201


@bp.patch("/machines/areas/<area_id>")
@module_required(ModuleId.ADMIN, action="areas.manage")
def update_area(area_id: str):
    """Rename ({"name"}), retire ({"retired": true}) or restore ({"retired": false}) an area."""
    area_service.get_area(area_id)  # an unknown id is 404 before the body is judged
    body = json_body()
    name, retired = pick(body, "name", "Area_Name"), body.get("retired")
    if name is None and retired is None:
        raise Invalid(_("Send the area's new name or retired (true or false)."), field="name")
    area = area_service.update_area(area_id, name=name, retired=retired)
    return {
        "success": True,
        "message": _("Area %(name)s saved.", name=area.name),
        "data": area_json(area, managed=True),
    }


@bp.get("/machines/<machine_id>/chemical-additives")
@module_required(ModuleId.MACHINES)
def chemical_additives(machine_id: str):
    machine = service.get_machine(machine_id)
    if wants_csv():
        return exports.chemical_additives_csv(machine.id, _query())
    rows = records.list_chemical_additives(machine.id, request.args.get("q"))
    return [chemical_additive_json(r) for r in rows]


@bp.post("/machines/<machine_id>/chemical-additives")
@module_required(ModuleId.MACHINES)
def add_chemical_additive(machine_id: str):
    service.get_machine(machine_id)
    body = json_body()
    row = records.add_chemical_additive(
        machine_id,
        area=_text(body, "area"),
        start_date=_text(body, "startDate", "date"),
        chemical_input=_text(body, "chemicalInput"),
        stage=_text(body, "stage"),
        value=_text(body, "value"),
        units=_text(body, "units"),
        person_in_charge=_text(body, "personInCharge"),
    )
    return {"success": True, "data": chemical_additive_json(row)}, 201


@bp.get("/machines/<machine_id>/waste-containers")
@module_required(ModuleId.MACHINES)
def waste_containers(machine_id: str):
    machine = service.get_machine(machine_id)
    if wants_csv():
        return exports.waste_containers_csv(machine.id, _query())
    rows = records.list_waste_containers(machine.id, request.args.get("q"))
    return [waste_container_json(r) for r in rows]


@bp.post("/machines/<machine_id>/waste-containers")
@module_required(ModuleId.MACHINES)
def add_waste_container(machine_id: str):
    service.get_machine(machine_id)
    body = json_body()
    row = records.add_waste_container(
        machine_id,
        area=_text(body, "area"),
        start_date=_text(body, "startDate"),
        status=_text(body, "status"),
    )
    return {"success": True, "data": waste_container_json(row)}, 201


def _page_row(row, now, gettext, open_alerts: dict[int, int]) -> dict:
    """The same fields as machine_json plus when the machine last reported and how many of its
    alerts are open, from a search.listing_columns row."""
    return {
        "machine_id": row.machine_id,
        "Name": row.name,
        "Area_id": row.area_id,
        "Area_Name": row.area_name,
        "status_id": row.status_id,
        "status_name": row.status_name,
        **last_reading_json(row.last_reading_at, now, gettext),
        "openAlerts": open_alerts.get(row.machine_id, 0),
    }


def _text(body: dict, *names: str) -> str | None:
    """A text field; lengths are judged by the service, which names the field."""
    return text_field(body, *names, required=False, max_length=10_000)


def _query() -> str:
    """q of an export: checked like a page's search (at most 100 characters)."""
    q = request.args.get("q", "")
    if len(q) > search.QUERY_MAX:
        raise Invalid(_("q must be at most %(n)s characters.", n=search.QUERY_MAX), field="q")
    return q
