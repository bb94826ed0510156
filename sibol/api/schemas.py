"""What each /api operation reads and answers, for the OpenAPI document.

Keyed by (endpoint, method):
  "summary"          one line, when the view's docstring is missing or unclear
  "body"             JSON schema of the request body ("content_type": its media type, JSON by
                     default), or "bodies": {media type: schema} when several are accepted;
                     "body_required": False when the body may be left out
  "query"            {name: schema} of the query parameters
  "status"           the success status (200 unless told); "success_content": {media type:
                     schema} when the success is not JSON (a file); "response": the success body's
                     JSON schema
  "errors"           the error statuses it may answer besides 401/403 (default 400, 404, 405, 415)
  "also"             further non-error statuses

Every write (any method but GET) may answer 400: a browser session cookie without its CSRF
token is refused before the view runs. Aliases the views also accept (e.g. "Email" or "email")
are named in descriptions; the schemas list the spelling the spec's client sends.
"""

from __future__ import annotations

STR = {"type": "string"}
INT = {"type": "integer"}
PAGING = {
    "page": {"type": "integer", "minimum": 1, "maximum": 1_000_000},
    "per_page": {"type": "integer", "minimum": 1, "maximum": 100},
}
Q = {"q": {"type": "string", "maxLength": 100, "description": "Search text"}}
ID = {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}
DATE = {"type": "string", "format": "date", "description": "YYYY-MM-DD"}
# The household and dashboard rules take dates of the years 2000 to 2100 only.
DATE_2000S = {
    "type": "string",
    "pattern": "^(20[0-9]{2}|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$",
    "description": "YYYY-MM-DD, years 2000 to 2100",
}
EMAIL = {"type": "string", "format": "email", "maxLength": 254}
PASSWORD = {
    "type": "string",
    "minLength": 8,
    "maxLength": 256,
    "description": "At least 8 characters with an upper- and a lower-case letter, a digit and a symbol",
}
RESET_CODE = {"type": "string", "pattern": "^[0-9]{6}$", "maxLength": 20, "description": "The 6-digit code"}
KG = {
    "type": "number",
    "minimum": 0,
    "maximum": 100_000,
    "description": "Kilograms (a number or numeric text)",
}


def text(max_length: int, description: str | None = None) -> dict:
    schema = {"type": "string", "maxLength": max_length}
    if description:
        schema["description"] = description
    return schema


def obj(properties: dict, *required: str, description: str | None = None) -> dict:
    schema: dict = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    if description:
        schema["description"] = description
    return schema


NAME = {
    "type": "string",
    "maxLength": 100,
    "pattern": "^[A-Za-z .'-]*[A-Za-z][A-Za-z .'-]*$",
    "description": "Letters, spaces, hyphens, apostrophes and periods",
}


def page_of(key: str = "data", **more: dict) -> dict:
    """The success body of a paged list: {success, <key>: [...], total, page, per_page}."""
    properties = {
        "success": {"type": "boolean"},
        key: {"type": "array", "items": {"type": "object"}},
        "total": {"type": "integer", "minimum": 0},
        "page": {"type": "integer", "minimum": 1},
        "per_page": {"type": "integer", "minimum": 1},
        **more,
    }
    return obj(properties, *properties)


def answer(key: str, kind: str = "object") -> dict:
    """The success body {success: true, <key>: ...} of a view answering one thing."""
    return obj({"success": {"type": "boolean", "enum": [True]}, key: {"type": kind}}, "success", key)


# Shapes shared by several operations ---------------------------------------------------------------

ROLE_ID = {
    "type": "integer",
    "enum": [1, 2, 3, 4],
    "description": "1 Admin, 2 Barangay Staff, 3 Operator, 4 Household",
}
MODULE_ID = {
    "type": "integer",
    "enum": [1, 2, 3, 4, 5, 6],
    "description": "1 Dashboard, 2 SIBOL Machines, 3 Maintenance, 4 Household, 5 Chat Support, 6 Admin",
}
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
SCHEDULE_FIELDS = {
    "maintenancePerson": text(100, "Who collects"),
    "collectorContact": {
        "description": "An e-mail address or a phone number (7 digits or more)",
        "anyOf": [EMAIL, {"type": "string", "pattern": "^\\+?[0-9 ()./-]{7,20}$"}],
    },
    "areas": {
        "description": "The areas covered: a list, or one text with commas (alias: area)",
        "anyOf": [{"type": "array", "minItems": 1, "maxItems": 20, "items": text(100)}, text(2100)],
    },
    "dateOfCollection": DATE_2000S,
    "status": {"type": "string", "enum": ["Pending", "Collected"], "description": "Pending unless told"},
    "totalWaste": KG,
}
PACKAGE = {"type": "string", "enum": ["Package 1", "Package 2", "Package 3", "Package 4"]}
REWARD_FIELDS = {
    "reward": text(120, "The reward's name (alias: name)"),
    "status": {
        "type": "string",
        "enum": ["Available", "Not Available"],
        "description": "Available unless told",
    },
    "points": {
        "type": "integer",
        "minimum": 0,
        "maximum": 10_000_000,
        "description": "Points needed to claim it (alias: eligibility)",
    },
    "area": text(100),
}
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
    ("core.openapi", "GET"): {"errors": []},
    # Auth ------------------------------------------------------------------------------------------
    ("api.auth.login", "POST"): {
        "response": obj(
            {
                "success": {"type": "boolean"},
                "message": STR,
                "token": STR,
                "accessToken": STR,
                "user": {"type": "object"},
            },
            "success",
            "token",
            "user",
        ),
        "summary": "Sign in with a username (or e-mail) and password; answers a bearer token",
        "body": obj(
            {"username": text(254, "Username or e-mail"), "password": {"type": "string", "maxLength": 256}},
            "username",
            "password",
        ),
        "errors": ["400", "401", "403", "415", "429"],
    },
    ("api.auth.logout", "POST"): {
        "summary": "Sign out: revokes the bearer token and ends the session",
        "errors": ["400"],
    },
    ("api.auth.allowed_modules", "GET"): {
        "response": answer("modules", "array"),
        "summary": "The modules the signed-in account holds",
        "errors": [],
    },
    ("api.auth.barangays", "GET"): {
        "response": answer("barangays", "array"),
        "summary": "Barangays to choose from when signing up",
        "errors": [],
    },
    ("api.auth.signup", "POST"): {
        "summary": "Register an account (no password until an admin approves it)",
        "body": obj(
            {
                "role": {**ROLE_ID, "description": ROLE_ID["description"] + " (aliases: roleId, Roles)"},
                "firstName": NAME,
                "lastName": NAME,
                "email": EMAIL,
                "areaId": {**ID, "description": "Barangay id (GET /api/auth/barangays); aliases: barangayId"},
                "isSSO": {
                    "type": "boolean",
                    "description": "Register with the Google identity of this browser session",
                },
            },
            "role",
            "firstName",
            "lastName",
            "email",
            "areaId",
        ),
        "status": 201,
        "errors": ["400", "403", "409", "415", "429"],
    },
    ("api.auth.resend_verification", "POST"): {
        "summary": "Send a new e-mail verification link (answers the same for unknown e-mails)",
        "body": obj({"email": EMAIL}, "email"),
        "errors": ["400", "415", "429"],
    },
    ("api.auth.verify_email", "GET"): {
        "summary": "Verify an e-mail address with the link's token",
        "errors": ["400", "429"],
    },
    ("api.auth.check_status", "GET"): {
        "summary": "Where a sign-up stands, by username or e-mail",
        "errors": ["404", "429"],
    },
    ("api.auth.forgot_password", "POST"): {
        "summary": "E-mail a password reset code (answers the same for unknown e-mails)",
        "body": obj({"email": EMAIL}, "email"),
        "errors": ["400", "415", "429"],
    },
    ("api.auth.verify_reset_code", "POST"): {
        "summary": "Check a password reset code",
        "body": obj({"email": EMAIL, "code": RESET_CODE}, "email", "code"),
        "errors": ["400", "415", "429"],
    },
    ("api.auth.reset_password", "POST"): {
        "summary": "Set a new password with a reset code",
        "body": obj(
            {
                "email": EMAIL,
                "code": RESET_CODE,
                "newPassword": {**PASSWORD, "description": PASSWORD["description"] + " (alias: password)"},
            },
            "email",
            "code",
            "newPassword",
        ),
        "errors": ["400", "415", "429"],
    },
    ("api.auth.set_password", "POST"): {
        "summary": "Set the first password with the link sent on approval",
        "body": obj(
            {
                "token": text(200),
                "newPassword": {**PASSWORD, "description": PASSWORD["description"] + " (alias: password)"},
            },
            "token",
            "newPassword",
        ),
        "errors": ["400", "415", "429"],
    },
    ("google.login", "GET"): {
        "summary": "Start Google sign-in (redirects to the provider)",
        "status": 302,
        "errors": [],
    },
    ("google.authorized", "GET"): {
        "summary": "Google's callback: redirects to the outcome's page",
        "status": 302,
        "errors": [],
    },
    # Admin -----------------------------------------------------------------------------------------
    ("api.admin.accounts", "GET"): {
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
        "response": page_of("pendingAccounts"),
        "summary": "Accounts awaiting approval, oldest first (paged when page or per_page is given)",
        "query": PAGING,
        "errors": ["400"],
    },
    ("api.admin.approve", "POST"): {
        "summary": "Approve an account awaiting approval",
        "errors": ["400", "404", "409"],
    },
    ("api.admin.reject", "POST"): {
        "summary": "Reject an account awaiting approval, with an optional reason",
        "body": obj({"reason": text(500, "Alias: Reason")}),
        "body_required": False,
        "errors": ["400", "404", "409", "415"],
    },
    ("api.admin.create", "POST"): {
        "summary": "Create an active account; a blank password is generated and answered once",
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
                    "description": PASSWORD["description"] + "; generated when left out",
                },
            },
            "FirstName",
            "LastName",
            "Email",
            "Roles",
        ),
        "status": 201,
        "errors": ["400", "409", "415"],
    },
    ("api.admin.account", "GET"): {
        "response": answer("user"),
        "summary": "One account with its latest audit entries",
        "errors": ["404"],
    },
    ("api.admin.update", "PUT"): {
        "summary": "Change an account's role and/or module access",
        "body": obj(
            {
                "Roles": {**ROLE_ID, "description": ROLE_ID["description"] + " (alias: roleId)"},
                "Access": ACCESS,
            }
        ),
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
    # Dashboard -------------------------------------------------------------------------------------
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
    # Household -------------------------------------------------------------------------------------
    ("api.household.schedules", "GET"): {
        "response": page_of(),
        "summary": "Collection schedules, latest date first",
        "query": {**Q, "status": SCHEDULE_FIELDS["status"], **PAGING},
        "errors": ["400"],
    },
    ("api.household.create_schedule", "POST"): {
        "summary": "Add a collection schedule",
        "body": obj(SCHEDULE_FIELDS, "maintenancePerson", "collectorContact", "areas", "dateOfCollection"),
        "status": 201,
        "errors": ["400", "415"],
    },
    ("api.household.schedule", "GET"): {
        "response": answer("schedule"),
        "summary": "One collection schedule",
        "errors": ["404"],
    },
    ("api.household.update_schedule", "PUT"): {
        "summary": "Change the fields sent of a collection schedule",
        "body": obj(SCHEDULE_FIELDS),
        "errors": ["400", "404", "415"],
    },
    ("api.household.update_schedule", "PATCH"): {
        "summary": "Change the fields sent of a collection schedule",
        "body": obj(SCHEDULE_FIELDS),
        "errors": ["400", "404", "415"],
    },
    ("api.household.leaderboard", "GET"): {
        "response": page_of(),
        "summary": "Household members ranked by points",
        "query": {**Q, "status": {"type": "string", "enum": ["Active", "Inactive"]}, **PAGING},
        "errors": ["400"],
    },
    ("api.household.rewards", "GET"): {
        "response": page_of(),
        "summary": "Rewards",
        "query": {**Q, "status": REWARD_FIELDS["status"], **PAGING},
        "errors": ["400"],
    },
    ("api.household.create_reward", "POST"): {
        "summary": "Add a reward: multipart with an optional image (PNG, JPEG, GIF or WebP, 10 MB), or JSON",
        "bodies": {
            "multipart/form-data": obj(
                {**REWARD_FIELDS, "image": {"type": "string", "format": "binary"}}, "reward", "points"
            ),
            "application/json": obj(REWARD_FIELDS, "reward", "points"),
        },
        "status": 201,
        "errors": ["400", "413", "415"],
    },
    ("api.household.reward_image", "GET"): {
        "summary": "A reward's image",
        "success_content": {
            media: {"type": "string", "format": "binary"}
            for media in ("image/png", "image/jpeg", "image/gif", "image/webp")
        },
        "errors": ["404"],
    },
    ("api.household.claim_reward", "POST"): {
        "summary": "A member spends points on an available reward",
        "body": obj({"memberId": {**ID, "description": "Alias: member_id"}}, "memberId"),
        "status": 201,
        "errors": ["400", "404", "409", "415"],
    },
    ("api.household.claims", "GET"): {
        "response": page_of(),
        "summary": "Reward claims, newest first",
        "query": {**Q, **PAGING},
        "errors": ["400"],
    },
    ("api.household.point_rule", "GET"): {
        "response": answer("pointRule"),
        "summary": "How many points a weight of food waste earns",
        "errors": [],
    },
    ("api.household.update_point_rule", "PUT"): {
        "summary": "Set how many points a weight of food waste earns",
        "body": obj(
            {
                "wasteKg": {**KG, "exclusiveMinimum": True},
                "points": {"type": "integer", "minimum": 1, "maximum": 10_000_000},
            },
            "wasteKg",
            "points",
        ),
        "errors": ["400", "415"],
    },
    # Machines --------------------------------------------------------------------------------------
    ("api.machines.list_machines", "GET"): {
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
                "status": {**ID, "nullable": True, "description": "null clears it; left out keeps it"},
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
        "response": {"type": "array", "items": {"type": "object"}},
        "summary": "Machine areas",
        "errors": [],
    },
    ("api.machines.chemical_additives", "GET"): {
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
    # Maintenance -----------------------------------------------------------------------------------
    ("api.maintenance.list_requests", "GET"): {
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
OPERATIONS[("api.household.update_point_rule", "PATCH")] = OPERATIONS[
    ("api.household.update_point_rule", "PUT")
]

from ..telemetry import openapi as telemetry_openapi  # noqa: E402

OPERATIONS.update(telemetry_openapi.OPERATIONS)
