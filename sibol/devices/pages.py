"""Devices have no pages: the feature is its API (register_blueprints wants a pages.bp)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("devices_pages", __name__)
