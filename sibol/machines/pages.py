"""The SIBOL Machines page."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..access import module_required
from ..models import ModuleId

bp = Blueprint("machines", __name__)


@bp.get("/sibol-machines")
@module_required(ModuleId.MACHINES)
def index():
    return render_template("machines/index.html")
