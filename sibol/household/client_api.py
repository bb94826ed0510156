"""GET /api/schedules, /api/areas, /api/operators: what the household screen of the spec's own
client reads. The spec leaves them out; they are served from the household data, as
plain lists of the spec's field names (section 3), under the household API's access rule
(module 4). Our own pages and islands use /api/household/* instead.
"""

from __future__ import annotations

from flask import Blueprint, request
from flask_babel import gettext as _

from ..errors import Invalid
from ..identity.access import module_required
from ..models import ModuleId
from . import service
from .serializers import schedule_json

bp = Blueprint("household_client", __name__)

# The plain list has no pages; past this many schedules, page /api/household/schedules instead.
PLAIN_LIST_MAX = 10_000


@bp.get("/schedules")
@module_required(ModuleId.HOUSEHOLD)
def schedules():
    """Collection schedule rows, latest date first; optional q (person, contact or area) and
    status (Pending or Collected)."""
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
    return [schedule_json(s) for s in rows]


@bp.get("/areas")
@module_required(ModuleId.HOUSEHOLD)
def areas():
    """The areas collection schedules cover, by name (case-insensitive), A to Z."""
    rows = service.schedule_areas()
    return [{"name": name, "Area_Name": name, "area": name, "schedules": count} for name, count in rows]


@bp.get("/operators")
@module_required(ModuleId.HOUSEHOLD)
def operators():
    """The people who collect (the schedules' maintenance persons, case-insensitive), A to Z, each
    with the name and contact of their most recently added schedule."""
    rows = service.collectors()
    return [
        {
            "name": name,
            "maintenancePerson": name,
            "contact": contact,
            "collectorContact": contact,
            "schedules": count,
        }
        for name, contact, count in rows
    ]
