"""/api/city (barangays, the city dashboard) in the OpenAPI document (City Admin only)."""

from __future__ import annotations

from ..api.schemas import EMAIL, ID, NAME, PAGING, PASSWORD, Q, answer, obj, page_of, text

BARANGAY_NAME = text(100, "Unique over the installation (any case)")

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.city.list_barangays", "GET"): {
        "response": page_of("items"),
        "summary": "Barangays by name, with their number of accounts and their Admins (City Admin)",
        "query": {**Q, **PAGING},
        "errors": ["400", "403"],
    },
    ("api.city.create_barangay", "POST"): {
        "summary": "Create a barangay (City Admin); an empty or taken name is a 400 naming `name`",
        "body": obj({"name": BARANGAY_NAME}, "name"),
        "status": 201,
        "errors": ["400", "403", "415"],
    },
    ("api.city.get_barangay", "GET"): {
        "response": answer("barangay"),
        "summary": "One barangay (City Admin)",
        "errors": ["403", "404"],
    },
    ("api.city.update_barangay", "PATCH"): {
        "summary": "Rename and/or deactivate or reactivate a barangay (deactivated: its accounts cannot sign in)",
        "body": obj({"name": BARANGAY_NAME, "isActive": {"type": "boolean"}}),
        "errors": ["400", "403", "404", "415"],
    },
    ("api.city.appoint_admin", "POST"): {
        "summary": "Appoint a barangay's Admin: an approved account of that barangay (accountId), or a new account",
        "body": obj(
            {
                "accountId": {**ID, "description": "An account of this barangay becomes its Admin"},
                "firstName": NAME,
                "lastName": NAME,
                "email": EMAIL,
                "password": {**PASSWORD, "description": "Left out: a set-password link is e-mailed"},
            }
        ),
        "status": 201,
        "errors": ["400", "403", "404", "409", "415"],
    },
    ("api.city.city_dashboard", "GET"): {
        "response": page_of(
            "items",
            city={
                "type": "object",
                "description": "The whole city's totals, counted at most a minute ago (asOf: when, UTC)",
                "properties": {"asOf": {"type": "string", "format": "date-time"}},
            },
        ),
        "summary": "Totals per barangay (machines, households, waste, energy, points, open maintenance) and for the city",
        "query": {**Q, **PAGING},
        "errors": ["400", "403"],
    },
}
