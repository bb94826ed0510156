"""The Household page."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..access import module_required
from ..models import ModuleId

bp = Blueprint("household", __name__)


@bp.get("/household")
@module_required(ModuleId.HOUSEHOLD)
def index():
    return render_template("household/index.html")
