"""What each /api operation reads and answers, for the OpenAPI document: the shared building
blocks here, each feature's OPERATIONS in sibol/<feature>/openapi.py next to its routes.

Keyed by (endpoint, method):
  "summary"          one line, when the view's docstring is missing or unclear
  "body"             JSON schema of the request body ("content_type": its media type, JSON by
                     default), or "bodies": {media type: schema} when several are accepted;
                     "body_required": False when the body may be left out
  "query"            {name: schema} of the query parameters
  "status"           the success status (200 unless told); "success_content": {media type:
                     schema} when the success is not JSON (a file); "response": the success body's
                     JSON schema
  "errors"           the error statuses it may answer besides 401/403 (default 400, 404, 405, 415)
  "also"             further non-error statuses
  "csv"              True for a list that also answers text/csv (format=csv or Accept: text/csv;
                     sibol/data/export.py): adds the format parameter, the CSV content and a 400

Every write (any method but GET) may answer 400: a browser session cookie that carries a
signed-in account (or any cookie with a body that is not JSON) without its CSRF token is refused
before the view runs; an anonymous cookie with a JSON body passes. Aliases the views also accept (e.g. "Email" or "email")
are named in descriptions; the schemas list the spelling the spec's client sends.
"""

from __future__ import annotations

from typing import Any

from ..data.listing import MAX_PAGE, MAX_PER_PAGE
from ..data.rows import MAX_ID

STR = {"type": "string"}
INT = {"type": "integer"}
PAGING = {
    "page": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
    "per_page": {"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE},
}
Q = {"q": {"type": "string", "maxLength": 100, "description": "Search text"}}
ID = {"type": "integer", "minimum": 1, "maximum": MAX_ID}
DATE = {"type": "string", "format": "date", "description": "YYYY-MM-DD"}
# The household and dashboard rules take dates of the years 2000 to 2100 only.
DATE_2000S = {
    "type": "string",
    "pattern": "^(20[0-9]{2}|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$",
    "description": "YYYY-MM-DD, years 2000 to 2100",
}
EMAIL = {"type": "string", "format": "email", "maxLength": 254}
PASSWORD: dict[str, Any] = {
    "type": "string",
    "minLength": 8,
    "maxLength": 256,
    "description": "At least 8 characters with an upper- and a lower-case letter, a digit and a symbol",
}
RESET_CODE = {"type": "string", "pattern": "^[0-9]{6}$", "maxLength": 20, "description": "The 6-digit code"}
KG = {
    "type": "number",
    "minimum": 0,
    "maximum": 100_000,
    "description": "Kilograms (a number or numeric text)",
}


def text(max_length: int, description: str | None = None) -> dict:
    schema = {"type": "string", "maxLength": max_length}
    if description:
        schema["description"] = description
    return schema


def obj(properties: dict, *required: str, description: str | None = None) -> dict:
    schema: dict = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    if description:
        schema["description"] = description
    return schema


NAME = {
    "type": "string",
    "maxLength": 100,
    "pattern": "^[A-Za-z .'-]*[A-Za-z][A-Za-z .'-]*$",
    "description": "Letters, spaces, hyphens, apostrophes and periods",
}


def page_of(key: str = "data", **more: dict) -> dict:
    """The success body of a paged list: {success, <key>: [...], total, page, per_page}."""
    properties = {
        "success": {"type": "boolean"},
        key: {"type": "array", "items": {"type": "object"}},
        "total": {"type": "integer", "minimum": 0},
        "page": {"type": "integer", "minimum": 1},
        "per_page": {"type": "integer", "minimum": 1},
        **more,
    }
    return obj(properties, *properties)


def answer(key: str, kind: str = "object") -> dict:
    """The success body {success: true, <key>: ...} of a view answering one thing."""
    return obj({"success": {"type": "boolean", "enum": [True]}, key: {"type": kind}}, "success", key)


# Shapes shared by several features ---------------------------------------------------------------

MODULE_ID = {
    "type": "integer",
    "enum": [1, 2, 3, 4, 5, 6],
    "description": "1 Dashboard, 2 SIBOL Machines, 3 Maintenance, 4 Household, 5 Chat Support, 6 Admin",
}
ROLE_ID: dict[str, Any] = {
    "type": "integer",
    "enum": [1, 2, 3, 4, 5],
    "description": "1 Admin, 2 Barangay Staff, 3 Operator, 4 Household, 5 City Admin (given only by a City Admin)",
}
