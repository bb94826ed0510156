"""/api/machines in the OpenAPI document (machines, options, additives, containers); sibol/api/schemas.py merges it."""

from __future__ import annotations

from ..api.schemas import DATE, ID, INT, PAGING, Q, answer, obj, text

PACKAGE = {"type": "string", "enum": ["Package 1", "Package 2", "Package 3", "Package 4"]}
AREA = obj(
    {
        "Area_id": INT,
        "Area_Name": {"type": "string"},
        "retired": {"type": "boolean"},
        "retiredAt": {"type": "string", "nullable": True, "description": "ISO 8601 UTC"},
    },
    "Area_id",
    "Area_Name",
)

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.machines.list_machines", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
        "response": {
            "anyOf": [
                {"type": "array", "items": {"type": "object"}},
                obj(
                    {
                        "data": {"type": "array", "items": {"type": "object"}},
                        "total": {"type": "integer", "nullable": True},
                        "page": INT,
                        "per_page": INT,
                    },
                    "data",
                    "total",
                    "page",
                    "per_page",
                ),
            ]
        },
        "summary": "Every machine (an array); with q, page or per_page one page {data, total, page, per_page}",
        "query": {
            **Q,
            "page": {"type": "integer", "minimum": 1, "maximum": 1_000_000},
            "per_page": PAGING["per_page"],
            "count": {"type": "string", "enum": ["0", "1"], "description": "0: skip the total (type-ahead)"},
        },
        "errors": ["400"],
    },
    ("api.machines.create_machine", "POST"): {
        "summary": "Add a machine (named 'SIBOL Machine {id}' when no name is sent)",
        "body": obj(
            {
                "areaId": {**ID, "description": "GET /api/machines/areas (alias: Area_id)"},
                "status": {**ID, "description": "GET /api/machines/statuses (alias: status_id)"},
                "name": text(100, "Alias: Name"),
            },
            "areaId",
        ),
        "status": 201,
        "errors": ["400", "415"],
    },
    ("api.machines.show_machine", "GET"): {
        "response": answer("data"),
        "summary": "One machine",
        "errors": ["404"],
    },
    ("api.machines.update_machine", "PUT"): {
        "summary": "Rename, move and set or clear the status of a machine",
        "body": obj(
            {
                "areaId": {**ID, "description": "Alias: Area_id"},
                "status": {**ID, "nullable": True, "description": "null, blank or left out clears it"},
                "name": text(100, "A blank name keeps the old one"),
            },
            "areaId",
        ),
        "errors": ["400", "404", "415"],
    },
    ("api.machines.statuses", "GET"): {
        "response": {"type": "array", "items": {"type": "object"}},
        "summary": "Machine statuses",
        "errors": [],
    },
    ("api.machines.areas", "GET"): {
        "response": {"type": "array", "items": AREA},
        "summary": "The areas a machine may be added to (all=1: the retired ones too)",
        "query": {"all": {"type": "string", "enum": ["0", "1"], "description": "1: list retired areas too"}},
        "errors": ["400"],
    },
    ("api.machines.create_area", "POST"): {
        "summary": "Add an area (a purok) to the caller's barangay (Admin module)",
        "body": obj({"name": text(100, "Unique in the barangay, ignoring case (alias: Area_Name)")}, "name"),
        "response": obj(
            {"success": {"type": "boolean"}, "message": {"type": "string"}, "data": AREA}, "data"
        ),
        "status": 201,
        "errors": ["400", "403", "409", "415"],
    },
    ("api.machines.update_area", "PATCH"): {
        "summary": "Rename an area, retire it (no new machines or schedules; its history stays) or restore it",
        "body": obj(
            {
                "name": text(100, "Alias: Area_Name"),
                "retired": {"type": "boolean", "description": "true retires, false restores"},
            }
        ),
        "response": obj(
            {"success": {"type": "boolean"}, "message": {"type": "string"}, "data": AREA}, "data"
        ),
        "errors": ["400", "403", "404", "409", "415"],
    },
    ("api.machines.chemical_additives", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
        "response": {"type": "array", "items": {"type": "object"}},
        "summary": "A machine's chemical additives (at most 500)",
        "query": Q,
        "errors": ["404"],
    },
    ("api.machines.add_chemical_additive", "POST"): {
        "summary": "Record a chemical added to a machine",
        "body": obj(
            {
                "area": PACKAGE,
                "startDate": {**DATE, "description": "Alias: date"},
                "chemicalInput": text(100),
                "stage": text(50),
                "value": text(20),
                "units": text(20),
                "personInCharge": text(100),
            },
            "area",
            "startDate",
        ),
        "status": 201,
        "errors": ["400", "404", "415"],
    },
    ("api.machines.waste_containers", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
        "response": {"type": "array", "items": {"type": "object"}},
        "summary": "A machine's waste containers (at most 500)",
        "query": Q,
        "errors": ["404"],
    },
    ("api.machines.add_waste_container", "POST"): {
        "summary": "Add a waste container to a machine",
        "body": obj(
            {
                "area": PACKAGE,
                "startDate": DATE,
                "status": {
                    "type": "string",
                    "enum": ["Full", "Not Full"],
                    "description": "Not Full unless told",
                },
            },
            "area",
            "startDate",
        ),
        "status": 201,
        "errors": ["400", "404", "415"],
    },
}
