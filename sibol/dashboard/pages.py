"""The dashboard page."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template
from flask_login import current_user

from ..access import module_required
from ..models import ModuleId

bp = Blueprint("dashboard", __name__)


@bp.get("/dashboard")
@module_required(ModuleId.DASHBOARD)
def index():
    barangay = (
        current_user.barangay.name
        if current_user.barangay
        else current_app.config["SIBOL_DEFAULT_BARANGAY_NAME"]
    )
    return render_template("dashboard/index.html", barangay=barangay)
