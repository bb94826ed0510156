"""Devices have no pages (register_blueprints wants a pages.bp): the feature puts its lean path
for device routes in front of the app."""

from __future__ import annotations

from flask import Blueprint, Flask

from . import http

bp = Blueprint("devices_pages", __name__)


def init_app(app: Flask) -> None:
    http.install(app)  # the routes declared with keys.device_route, served without the page machinery
