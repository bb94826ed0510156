"""What each /api operation reads and answers, for the OpenAPI document.

Keyed by (endpoint, method). "body": JSON schema of the request; "query": query parameters;
"status": the success status; "errors": the error statuses it may answer besides 401/403.
"""

from __future__ import annotations

STR = {"type": "string"}
INT = {"type": "integer"}
PAGING = {"page": {"type": "integer", "minimum": 1}, "per_page": {"type": "integer", "minimum": 1, "maximum": 100}}

OPERATIONS: dict[tuple[str, str], dict] = {
    ("core.openapi", "GET"): {"errors": []},
    ("api.auth.login", "POST"): {
        "body": {"type": "object", "required": ["username", "password"],
                 "properties": {"username": STR, "password": STR}},
        "errors": ["400", "401", "403", "415", "429"],
    },
    ("api.auth.logout", "POST"): {"errors": ["400"]},
    ("api.auth.allowed_modules", "GET"): {"errors": []},
    ("google.login", "GET"): {"status": 302, "errors": []},
    ("google.authorized", "GET"): {"status": 302, "errors": []},
}
