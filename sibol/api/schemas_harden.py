"""OpenAPI descriptions of the routes issue 12 added (merged into schemas.OPERATIONS)."""

from __future__ import annotations

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.admin.approve", "POST"): {
        "summary": "Approve an account awaiting approval, with the role it asked for or another one; "
        'granting Admin needs confirmRole "Admin"',
        "body": {
            "type": "object",
            "properties": {
                "role": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 4,
                    "description": "Approve with this role (and its default modules) instead of the one asked for",
                },
                "confirmRole": {
                    "type": "string",
                    "maxLength": 50,
                    "description": 'Must name the role ("Admin") when the approval grants Admin',
                },
            },
        },
        "body_required": False,
        "errors": ["400", "404", "409", "415"],
    },
    ("api.admin.locked_accounts", "GET"): {
        "summary": "Accounts locked now by too many wrong passwords, soonest to unlock first",
    },
    ("api.admin.unlock", "POST"): {
        "summary": "Lift an account's sign-in lock and forget its failed attempts",
        "errors": ["404", "409"],
    },
    ("api.auth.list_sessions", "GET"): {
        "summary": "The signed-in account's page sessions (newest first) and its live token count",
        "errors": ["401"],
    },
    ("api.auth.revoke_all_sessions", "POST"): {
        "summary": "Sign out everywhere: every page session and bearer token of the account ends",
        "errors": ["401"],
    },
}
