"""The Chat Support page."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..identity.access import module_required
from ..models import ModuleId

bp = Blueprint("chat", __name__)


@bp.get("/chat-support")
@module_required(ModuleId.CHAT_SUPPORT)
def index():
    return render_template("chat/index.html")
