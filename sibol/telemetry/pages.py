"""Pages: the alerts view and the notification centre (machine tabs render in machines/)."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("telemetry", __name__)


def init_app(app: Flask) -> None:
    from .cli import register_commands

    register_commands(app)
