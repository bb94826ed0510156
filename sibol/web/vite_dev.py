"""The Vite dev server (`make dev`): whether it runs, and where, read from its hot file."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from flask import current_app

HOT_FILE = Path(__file__).resolve().parents[1] / "static" / "hot"

_NOT_READ = object()


def dev_server_url() -> str | None:
    """The Vite dev server's URL while `make dev` runs (its hot file exists), else None.

    `make dev` runs Flask in debug mode, where the file is looked at on every call; a production
    app (not debug) reads it once per process instead of a file read on every request."""
    if current_app.config.get("SIBOL_IGNORE_HOT_FILE"):
        return None
    if not current_app.debug:
        cached = current_app.extensions.get("sibol_dev_server", _NOT_READ)
        if cached is not _NOT_READ:
            return cast(str | None, cached)
    try:
        url = HOT_FILE.read_text().strip().rstrip("/") or None
    except FileNotFoundError:
        url = None
    current_app.extensions["sibol_dev_server"] = url
    return url
