"""/api/reports in the OpenAPI document; sibol/api/schemas.py merges it."""

from __future__ import annotations

from ..api.schemas import STR, obj

NUMBER_OR_NULL = {"type": ["number", "null"]}
COMPARED = obj(
    {
        "value": NUMBER_OR_NULL,
        "previous": NUMBER_OR_NULL,
        "change": {**NUMBER_OR_NULL, "description": "value − previous; null when either is missing"},
        "percent": {**NUMBER_OR_NULL, "description": "change / previous × 100; null when previous is 0"},
    },
    "value",
    "previous",
    "change",
    "percent",
)

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.reports.monthly", "GET"): {
        "summary": "The monthly report: waste, energy, points, households, maintenance and alerts, "
        "each beside the month before (Admin and Barangay Staff)",
        "query": {
            "month": {
                "type": "string",
                "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])$",
                "description": "YYYY-MM, from 2000-01 to the current month in the barangay's time "
                "zone; the current month when left out",
            }
        },
        "response": obj(
            {
                "success": {"type": "boolean"},
                "barangay": STR,
                "month": STR,
                "label": STR,
                "previousMonth": STR,
                "previousLabel": STR,
                "timeZone": STR,
                "waste": obj(
                    {
                        "by": {"type": "string", "enum": ["street", "machine"]},
                        "areas": {"type": "array", "items": {"type": "object"}},
                        "total": COMPARED,
                    },
                    "by",
                    "areas",
                    "total",
                ),
                "energy": {
                    "type": "object",
                    "description": "unit (kWh), source (machines, readings, mixed or none), and the compared figure",
                },
                "points": obj({"awarded": COMPARED, "claimed": COMPARED}, "awarded", "claimed"),
                "households": COMPARED,
                "maintenance": obj(
                    {"opened": COMPARED, "closed": COMPARED, "hoursToClose": COMPARED},
                    "opened",
                    "closed",
                    "hoursToClose",
                ),
                "alerts": {"type": ["object", "null"], "description": "null where no machine reports"},
            },
            "success",
            "barangay",
            "month",
            "waste",
            "energy",
            "points",
            "households",
            "maintenance",
            "alerts",
        ),
        "errors": ["400"],
    },
}
