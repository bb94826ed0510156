"""/api/admin in the OpenAPI document (accounts, approval, audit); sibol/api/schemas.py merges it."""

from __future__ import annotations

from ..api.schemas import EMAIL, ID, MODULE_ID, PAGING, PASSWORD, ROLE_ID, Q, answer, obj, page_of, text

ACCESS = {
    "description": "The modules the account holds: ids or keys/names (or one comma-separated text); at most 50",
    "anyOf": [
        {
            "type": "array",
            "maxItems": 50,
            "items": {
                "anyOf": [
                    MODULE_ID,
                    {
                        "type": "string",
                        "enum": [
                            "dashboard",
                            "machines",
                            "maintenance",
                            "household",
                            "chat_support",
                            "admin",
                        ],
                    },
                ]
            },
        },
        {"type": "string"},
    ],
}

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.admin.accounts", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
        "response": page_of("users"),
        "summary": "Accounts not awaiting approval, newest first (paged when page or per_page is given)",
        "query": {
            **Q,
            "role": {"type": "string", "enum": ["all", "1", "2", "3", "4"], "description": "Role id"},
            **PAGING,
        },
        "errors": ["400"],
    },
    ("api.admin.pending_accounts", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
        "response": page_of("pendingAccounts"),
        "summary": "Accounts awaiting approval, oldest first (paged when page or per_page is given)",
        "query": PAGING,
        "errors": ["400"],
    },
    ("api.admin.reject", "POST"): {
        "summary": "Reject an account awaiting approval, with an optional reason",
        "body": obj({"reason": text(500, "Alias: Reason")}),
        "body_required": False,
        "errors": ["400", "404", "409", "415"],
    },
    ("api.admin.create", "POST"): {
        "summary": "Create an active account; without a password the user is e-mailed a set-password link",
        "body": obj(
            {
                "FirstName": text(100, "Alias: firstName"),
                "LastName": text(100, "Alias: lastName"),
                "Email": {**EMAIL, "description": "Alias: email"},
                "Roles": {**ROLE_ID, "description": ROLE_ID["description"] + " (aliases: roleId, role)"},
                "Access": ACCESS,
                "Barangay_id": {**ID, "description": "Alias: barangayId"},
                "Username": {
                    "type": "string",
                    "maxLength": 30,
                    "pattern": "^[A-Za-z0-9._-]{1,30}$",
                    "description": "Derived from the names when left out (alias: username)",
                },
                "Password": {
                    **PASSWORD,
                    "description": PASSWORD["description"]
                    + "; never echoed; left out: a set-password link is e-mailed",
                },
            },
            "FirstName",
            "LastName",
            "Email",
            "Roles",
        ),
        "status": 201,
        "errors": ["400", "404", "409", "415"],
    },
    ("api.admin.account", "GET"): {
        "response": answer("user"),
        "summary": "One account with its latest audit entries",
        "errors": ["404"],
    },
    ("api.admin.update", "PUT"): {
        "summary": "Change an account's role and/or module access",
        "body": {
            **obj(
                {
                    "Roles": {**ROLE_ID, "description": ROLE_ID["description"] + " (alias: roleId)"},
                    "Access": ACCESS,
                },
                description="Roles, Access or both (not null); a body with neither is refused (400)",
            ),
            "anyOf": [{"required": ["Roles"]}, {"required": ["roleId"]}, {"required": ["Access"]}],
        },
        "errors": ["400", "404", "409", "415"],
    },
    ("api.admin.set_active", "PATCH"): {
        "summary": "Enable or disable an account (disabling ends its sessions and tokens)",
        "body": obj(
            {"isActive": {"type": "boolean", "description": "Also 0 or 1 (aliases: IsActive, is_active)"}},
            "isActive",
        ),
        "errors": ["400", "404", "409", "415"],
    },
    ("api.admin.account_audit", "GET"): {
        "summary": "The latest 50 audit entries about an account",
        "errors": ["404"],
    },
    ("api.admin.audit_log", "GET"): {
        "response": page_of("entries"),
        "summary": "The audit log, newest first",
        "query": PAGING,
        "errors": ["400"],
    },
    ("api.admin.roles", "GET"): {"response": answer("roles", "array"), "summary": "The roles", "errors": []},
    ("api.admin.modules", "GET"): {
        "response": answer("modules", "array"),
        "summary": "The modules",
        "errors": [],
    },
    ("api.admin.barangays", "GET"): {
        "response": answer("barangays", "array"),
        "summary": "The barangays",
        "errors": [],
    },
}

# Approval with another role, locked accounts.
OPERATIONS.update(
    {
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
    }
)
