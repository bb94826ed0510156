"""/api/public in the OpenAPI document; sibol/api/schemas.py merges it."""

from __future__ import annotations

from ..api.schemas import STR, obj

FIGURES = {
    "type": "object",
    "description": "wasteKg, energyKwh, methaneKg, co2eKg, gridCo2eKg, methaneCo2eKg (docs/impact.md)",
}

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.public.barangay", "GET"): {
        "summary": "A barangay's public figures: this month's and this year's waste, energy and CO2e, "
        "households taking part, next collections, areas and households (names only with consent). "
        "No sign-in; CORS open; 60 requests a minute per address",
        "response": obj(
            {
                "success": {"type": "boolean"},
                "barangay": STR,
                "slug": STR,
                "timeZone": STR,
                "month": FIGURES,
                "year": FIGURES,
                "nextCollections": {"type": "array", "items": {"type": "object"}},
                "areas": {"type": "array", "items": {"type": "object"}},
                "households": {"type": "array", "items": {"type": "object"}},
            },
            "success",
            "barangay",
            "slug",
            "month",
            "year",
        ),
        "errors": ["404", "429"],
    },
}
