"""/api/schedules, /api/areas, /api/operators: the household screen of the spec's own client.

The spec leaves them out; the client reads and writes database-style names (a schedule's
Schedule_id, Account_id, Collector, Contact, Area, sched_stat_id, Date_of_collection; an area's
Area_id, Area_Name; an operator's Account_id, Username), which sibol/household/client_schedules.py
turns into the household service's values. Answers carry those names beside ours, as plain lists.
Access is the household API's: module 4 to read, the schedule-write action to write; every row is
the barangay's own. Our own pages and islands use /api/household/* instead.
"""

from __future__ import annotations

from flask import Blueprint, request
from flask_babel import gettext as _

from ..api import json_body
from ..errors import Invalid
from ..identity.access import module_required
from ..models import ModuleId
from . import client_schedules, service
from .serializers import client_area_json, client_operator_json, client_schedule_json

bp = Blueprint("household_client", __name__)

# The plain list has no pages; past this many schedules, page /api/household/schedules instead.
PLAIN_LIST_MAX = 10_000


@bp.get("/schedules")
@module_required(ModuleId.HOUSEHOLD, action="household.read")
def schedules():
    """Collection schedule rows, latest date first; optional q (person, contact or area) and
    status (Pending, Collecting, Collected or Cancelled)."""
    q = request.args.get("q", "")
    if len(q) > 100:
        raise Invalid(_("q must be at most 100 characters."), field="q")
    status = request.args.get("status") or None
    if status is not None and status not in service.COLLECTION_STATUSES:
        raise Invalid(
            _("status must be one of: %(value)s.", value=", ".join(service.COLLECTION_STATUSES)),
            field="status",
        )
    rows = service.list_schedules(q, status, 1, PLAIN_LIST_MAX).rows
    area_ids = client_schedules.area_ids_by_name()
    return [client_schedule_json(s, area_ids) for s in rows]


def _answer(schedule, message: str) -> dict:
    row = client_schedule_json(schedule, client_schedules.area_ids_by_name())
    return {"success": True, "message": message, "Schedule_id": schedule.id, "schedule": row}


@bp.post("/schedules")
@module_required(ModuleId.HOUSEHOLD, action="household.schedule.write")
def create_schedule():
    schedule = client_schedules.create(json_body())
    return _answer(schedule, _("Collection schedule saved.")), 201


@bp.put("/schedules/<int:schedule_id>")
@module_required(ModuleId.HOUSEHOLD, action="household.schedule.write")
def update_schedule(schedule_id: int):
    schedule = client_schedules.update(schedule_id, json_body())
    return _answer(schedule, _("Collection schedule updated."))


@bp.delete("/schedules/<int:schedule_id>")
@module_required(ModuleId.HOUSEHOLD, action="household.schedule.write")
def delete_schedule(schedule_id: int):
    service.delete_schedule(schedule_id)
    return {"success": True, "message": _("Collection schedule deleted."), "Schedule_id": schedule_id}


@bp.get("/areas")
@module_required(ModuleId.HOUSEHOLD, action="household.read")
def areas():
    """The barangay's areas by name, A to Z, each with how many schedules cover it."""
    return [client_area_json(area, count) for area, count in client_schedules.areas()]


@bp.get("/operators")
@module_required(ModuleId.HOUSEHOLD, action="household.read")
def operators():
    """The accounts that can collect (active operators), by name A to Z."""
    return [client_operator_json(o) for o in client_schedules.operators()]
