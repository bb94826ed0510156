"""/api/maintenance in the OpenAPI document (requests and their actions); sibol/api/schemas.py merges it."""

from __future__ import annotations

from ..api.schemas import DATE, ID, PAGING, Q, answer, obj, page_of, text

MAINTENANCE_FILTERS = {
    "tab": {
        "type": "string",
        "enum": ["request", "pending", "complete"],
        "description": "complete unless told",
    },
    **Q,
    "status": {
        "type": "string",
        "enum": ["ongoing", "completed", "canceled"],
        "description": "Comma-separated or repeated",
    },
    "priority": {
        "type": "string",
        "enum": ["critical", "urgent", "mild"],
        "description": "Comma-separated or repeated",
    },
    "date": {"type": "string", "enum": ["weekly", "monthly", "yearly"], "description": "Request date within"},
    **PAGING,
}
NEW_REQUEST = {
    "assignedTo": {**ID, "description": "Account id of an active operator (GET /api/maintenance/operators)"},
    "issue": text(2000),
    "priority": {"type": "string", "enum": ["urgent", "critical", "mild"], "description": "Case-insensitive"},
    "dueDate": {**DATE, "description": "YYYY-MM-DD, today (Asia/Manila) or later, at most 10 years ahead"},
    "contactDetails": text(40, "A phone number"),
    "requestNumber": {
        "type": "integer",
        "minimum": 100000,
        "maximum": 199999,
        "description": "The number GET /api/maintenance/next-number proposed; another is picked if taken",
    },
}


def form_and_json(schema: dict) -> dict:
    """The maintenance actions read a JSON object or a form with the same fields."""
    return {"application/json": schema, "application/x-www-form-urlencoded": schema}


MAINTENANCE_ACTION = ["400", "404", "409", "415"]

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.maintenance.list_requests", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
        "response": page_of(tab={"type": "string", "enum": ["request", "pending", "complete"]}),
        "summary": "One page of a tab's maintenance requests",
        "query": MAINTENANCE_FILTERS,
        "errors": ["400"],
    },
    ("api.maintenance.create_request", "POST"): {
        "summary": "Make a maintenance request assigned to an operator, with up to 5 images (10 MB in all)",
        "bodies": {
            "application/json": obj(NEW_REQUEST, "assignedTo", "issue", "priority", "dueDate"),
            "multipart/form-data": obj(
                {
                    **NEW_REQUEST,
                    "file": {"type": "array", "maxItems": 5, "items": {"type": "string", "format": "binary"}},
                },
                "assignedTo",
                "issue",
                "priority",
                "dueDate",
            ),
        },
        "status": 201,
        "errors": ["400", "409", "413", "415"],
    },
    ("api.maintenance.get_request", "GET"): {
        "response": answer("request"),
        "summary": "One maintenance request with its history",
        "errors": ["404"],
    },
    ("api.maintenance.renew", "POST"): {
        "summary": "Give an on-going request a new due date, with a remark",
        "bodies": form_and_json(
            obj({"dueDate": NEW_REQUEST["dueDate"], "remarks": text(1000)}, "dueDate", "remarks")
        ),
        "errors": MAINTENANCE_ACTION,
    },
    ("api.maintenance.complete", "POST"): {
        "summary": "Complete an on-going request, with optional remarks",
        "bodies": form_and_json(obj({"remarks": text(1000)})),
        "body_required": False,
        "errors": MAINTENANCE_ACTION,
    },
    ("api.maintenance.cancel", "POST"): {
        "summary": "Cancel an on-going request with a reason",
        "bodies": form_and_json(obj({"reason": text(1000, "Alias: remarks")}, "reason")),
        "errors": MAINTENANCE_ACTION,
    },
    ("api.maintenance.remark", "POST"): {
        "summary": "Add a remark to a request",
        "bodies": form_and_json(obj({"remarks": text(1000)}, "remarks")),
        "errors": ["400", "404", "415"],
    },
    ("api.maintenance.assign", "POST"): {
        "summary": "Reassign an on-going request to another operator",
        "bodies": form_and_json(obj({"assignedTo": NEW_REQUEST["assignedTo"]}, "assignedTo")),
        "errors": MAINTENANCE_ACTION,
    },
    ("api.maintenance.operators", "GET"): {
        "response": answer("operators", "array"),
        "summary": "Operators a request may be assigned to",
        "errors": [],
    },
    ("api.maintenance.next_number", "GET"): {
        "response": obj(
            {
                "success": {"type": "boolean"},
                "requestNumber": {"type": "integer", "minimum": 100000, "maximum": 199999},
            },
            "success",
            "requestNumber",
        ),
        "errors": [],
    },
}
