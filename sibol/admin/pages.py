"""The Account administration page."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..access import module_required
from ..models import ModuleId

bp = Blueprint("admin", __name__)


@bp.get("/admin")
@module_required(ModuleId.ADMIN)
def index():
    return render_template("admin/index.html")
