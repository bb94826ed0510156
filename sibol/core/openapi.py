"""The core routes under /api: the OpenAPI document itself (sibol/core/pages.py)."""

from __future__ import annotations

OPERATIONS: dict[tuple[str, str], dict] = {("core.openapi", "GET"): {"errors": []}}
