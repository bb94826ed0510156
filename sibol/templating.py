"""Jinja globals shared by every template."""

from __future__ import annotations

import hashlib
from datetime import datetime

from flask import Flask
from flask_login import current_user

from .assets import STATIC_DIR
from .listing import page_link
from .localtime import init_localtime, now
from .models import MODULES, ModuleId
from .presentation import init_presentation

_versions: dict[str, str] = {}


def static_url(filename: str) -> str:
    """A cache-busting URL for an unhashed static file (content hash as ?v=)."""
    version = _versions.get(filename)
    if version is None:
        try:
            version = hashlib.sha256((STATIC_DIR / filename).read_bytes()).hexdigest()[:10]
        except FileNotFoundError:
            version = "0"
        _versions[filename] = version
    return f"/static/{filename}?v={version}"


def nav_items() -> list[dict]:
    """Spec section 2: every link always shows except Admin, shown only to admins."""
    items = []
    for module_id, (_key, label, path) in MODULES.items():
        if module_id == ModuleId.ADMIN and not (current_user.is_authenticated and current_user.is_admin):
            continue
        items.append({"id": int(module_id), "label": label, "path": path})
    return items


def today() -> datetime:
    return now()


def init_templating(app: Flask) -> None:
    if app.debug:
        _versions.clear()
    app.jinja_env.globals.update(static_url=static_url, nav_items=nav_items, page_link=page_link)
    app.context_processor(lambda: {"today": today()})
    init_presentation(app)
    init_localtime(app)
