"""/api/reports/monthly: the monthly report's figures as JSON (the same as the page shows)."""

from __future__ import annotations

from flask import Blueprint, request

from ..identity.access import module_required
from ..models import ModuleId
from . import service
from .pages import ACTION, barangay_name

bp = Blueprint("reports", __name__, url_prefix="/reports")


@bp.get("/monthly")
@module_required(ModuleId.DASHBOARD, action=ACTION)
def monthly():
    """The report of one month (?month=YYYY-MM, the current month when left out), each figure
    with the month before's and the change."""
    month = service.parse_month(request.args.get("month"))
    return {"success": True, "barangay": barangay_name(), **service.monthly_report(month)}
