"""The Maintenance page."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..access import module_required
from ..models import ModuleId

bp = Blueprint("maintenance", __name__)


@bp.get("/maintenance")
@module_required(ModuleId.MAINTENANCE)
def index():
    return render_template("maintenance/index.html")
