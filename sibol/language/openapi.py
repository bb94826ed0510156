"""OpenAPI descriptions of the language routes (merged into sibol/api/openapi.py)."""

from __future__ import annotations

from ..api.schemas import obj

LANGUAGE = {"type": "string", "enum": ["en", "fil"], "description": "en: English, fil: Filipino"}

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.language.languages", "GET"): {
        "summary": "The languages the console speaks, and the account's choice (null: the browser's)",
        "errors": [],
    },
    ("api.language.set_language", "PUT"): {
        "summary": "Store the account's language; messages then follow it (else Accept-Language)",
        "body": obj({"language": LANGUAGE}, "language"),
        "errors": ["400", "415"],
    },
}
