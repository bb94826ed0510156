"""/api/household/members/<id>/reminders and /api/reminders/inbound in the OpenAPI document; sibol/api/schemas.py merges it."""

from __future__ import annotations

REMINDERS = {
    "type": ["object", "null"],
    "description": "bySms, byEmail, mobile (+63...), email, language, consentAt, stopped",
}

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.reminders.read", "GET"): {
        "summary": "What the household agreed to be reminded by (null: nothing yet)",
        "response": {
            "type": "object",
            "properties": {"success": {"type": "boolean"}, "reminders": REMINDERS},
        },
        "errors": ["404"],
    },
    ("api.reminders.record", "PUT"): {
        "summary": "Staff record the household's consent to reminders by SMS and/or e-mail; a wrong "
        "mobile (09XXXXXXXXX or +639XXXXXXXXX) or e-mail is a 400 naming the field, nothing saved",
        "body": {
            "type": "object",
            "properties": {
                "bySms": {"type": "boolean"},
                "byEmail": {"type": "boolean"},
                "mobile": {"type": "string"},
                "email": {"type": "string"},
                "language": {"type": "string", "enum": ["fil", "en"]},
                "consent": {"type": "boolean", "description": "the household agreed (required true)"},
            },
            "required": ["consent"],
        },
        "response": {
            "type": "object",
            "properties": {"success": {"type": "boolean"}, "reminders": REMINDERS},
        },
        "errors": ["400", "404"],
    },
    ("api.reminders.inbound", "POST"): {
        "summary": "The SMS gateway forwards a reply (form fields or JSON): a message STOP (any case) "
        "ends every SMS reminder to that number; anything else is ignored. The shared secret "
        "SIBOL_SMS_INBOUND_SECRET goes in the X-Sibol-Secret header or the secret query parameter; "
        "without the setting the endpoint is a 404, a wrong secret a 403",
        "body": {
            "type": "object",
            "properties": {
                "number": {"type": "string", "description": "the sender, 09..., +639... or 639..."},
                "message": {"type": "string"},
            },
            "required": ["number", "message"],
        },
        "response": {
            "type": "object",
            "properties": {"success": {"type": "boolean"}, "stopped": {"type": "integer"}},
        },
        "errors": ["400", "403", "404"],
    },
}
