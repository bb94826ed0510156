"""The dashboard page: greeting, waste doughnut, process panel, collection schedule, energy chart."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request
from flask_login import current_user

from ..access import module_required
from ..household.rules import kg_text
from ..models import ModuleId
from . import service

bp = Blueprint("dashboard", __name__)


@bp.app_template_filter("kg_number")
def kg_number(kg: float) -> str:
    """1.5 -> '1.5', 5.0 -> '5' (the spec writes whole kilograms without decimals)."""
    return kg_text(round(kg * 1000))


@bp.get("/dashboard")
@module_required(ModuleId.DASHBOARD)
def index():
    barangay = (
        current_user.barangay.name
        if current_user.barangay
        else current_app.config["SIBOL_DEFAULT_BARANGAY_NAME"]
    )
    period = request.args.get("period", "weekly")
    if period not in service.PERIODS:
        period = "weekly"
    summary = service.summary()
    return render_template(
        "dashboard/index.html",
        barangay=barangay,
        period=period,
        periods=service.PERIODS,
        period_names=service.PERIOD_NAMES,
        summary=summary,
        chart_props={
            "period": period,
            "waste": summary["waste"],
            "energy": summary["energy"],
        },
    )
