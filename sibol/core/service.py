"""What the core pages ask of the platform: whether the database answers."""

from __future__ import annotations

from flask import current_app
from sqlalchemy import text

from ..extensions import db


def database_answers() -> bool:
    """Whether the database answers a query; a failure is logged and its transaction ended."""
    try:
        db.session.execute(text("SELECT 1"))
    except Exception as err:  # any driver error means the database is not usable
        db.session.rollback()
        current_app.logger.warning("healthz: database check failed: %s", err)
        return False
    return True
