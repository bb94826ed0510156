"""/api/dashboard in the OpenAPI document (summaries and records); sibol/api/schemas.py merges it."""

from __future__ import annotations

from ..api.schemas import DATE_2000S, KG, STR, obj, text

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.dashboard.summary", "GET"): {
        "response": obj(
            {
                "success": {"type": "boolean"},
                "barangay": STR,
                "waste": {"type": "object"},
                "energy": {"type": "object"},
                "schedule": {"type": "array"},
                "process": {"type": "object"},
            },
            "success",
            "barangay",
            "waste",
            "energy",
            "schedule",
            "process",
        ),
        "summary": "The dashboard's figures: waste, energy, schedule, process",
        "errors": [],
    },
    ("api.dashboard.record_waste", "POST"): {
        "summary": "Record a waste collection",
        "body": obj(
            {"street": text(100), "collectedOn": DATE_2000S, "weightKg": KG},
            "street",
            "collectedOn",
            "weightKg",
        ),
        "status": 201,
        "errors": ["400", "415"],
    },
    ("api.dashboard.record_energy", "POST"): {
        "summary": "Record a month's energy reading (one per month)",
        "body": obj(
            {
                "month": {
                    "type": "string",
                    "pattern": "^(20[0-9]{2}|2100)-(0[1-9]|1[0-2])$",
                    "description": "YYYY-MM, years 2000 to 2100",
                },
                "kilowatts": {"type": "integer", "minimum": 0, "maximum": 10_000_000},
            },
            "month",
            "kilowatts",
        ),
        "status": 201,
        "errors": ["400", "409", "415"],
    },
}
