"""/api/dashboard: the figures the dashboard shows, and recording new ones."""

from __future__ import annotations

from flask import Blueprint, current_app
from flask_babel import gettext as _
from flask_login import current_user

from ..api import json_body
from ..identity.access import module_required
from ..models import ModuleId
from . import service

bp = Blueprint("dashboard", __name__, url_prefix="/dashboard")


def summary_json(summary: dict) -> dict:
    return {
        "waste": {
            period: {
                "label": f["label"],
                "streets": f["streets"],
                "kg": f["kg"],
                "totalKg": f["total_kg"],
                "totalText": f["total_text"],
                "unit": "kg",
            }
            for period, f in summary["waste"].items()
        },
        "energy": summary["energy"],
        "schedule": [
            {"area": row["area"], "staff": row["staff"], "date": row["date"].isoformat()}
            for row in summary["schedule"]
        ],
        "process": {
            "stages": summary["process"]["stages"],
            "stepSeconds": summary["process"]["step_seconds"],
        },
    }


@bp.get("/summary")
@module_required(ModuleId.DASHBOARD)
def summary():
    barangay = (
        current_user.barangay.name
        if current_user.barangay
        else current_app.config["SIBOL_DEFAULT_BARANGAY_NAME"]
    )
    return {"success": True, "barangay": barangay, **summary_json(service.summary())}


@bp.post("/waste-collections")
@module_required(ModuleId.DASHBOARD, action="dashboard.record")
def record_waste():
    row = service.record_waste(json_body())
    return {
        "success": True,
        "message": _("Waste collection recorded."),
        "wasteCollection": {
            "id": row.id,
            "street": row.street,
            "collectedOn": row.collected_on.isoformat(),
            "weightKg": row.weight_g / 1000,
        },
    }, 201


@bp.post("/energy-readings")
@module_required(ModuleId.DASHBOARD, action="dashboard.record")
def record_energy():
    row = service.record_energy(json_body())
    return {
        "success": True,
        "message": _("Energy reading recorded."),
        "energyReading": {"id": row.id, "month": row.month.strftime("%Y-%m"), "kilowatts": row.kilowatts},
    }, 201
