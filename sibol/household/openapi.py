"""/api/household in the OpenAPI document (schedules, leaderboard, rewards, claims, point rule); sibol/api/schemas.py merges it."""

from __future__ import annotations

from ..api.schemas import DATE_2000S, EMAIL, ID, INT, KG, PAGING, STR, Q, answer, obj, page_of, text

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
    "status": {
        "type": "string",
        "enum": ["Pending", "Collecting", "Collected", "Cancelled"],
        "description": "Pending unless told",
    },
    "totalWaste": KG,
}
# The spec's client's names of a schedule (sibol/household/client_schedules.py).
CLIENT_ID = {**ID, "description": "An id (a number, or its digits as text)"}
CLIENT_SCHEDULE_FIELDS = {
    "Account_id": {**CLIENT_ID, "description": "The collector: an operator's Account_id from /api/operators"},
    "Collector": text(100, "The collector's name as shown (the operator's name unless sent)"),
    "Contact": {
        "type": "string",
        "pattern": "^[0-9+ ().-]{11,20}$",
        "description": "A Philippine mobile number, 09XXXXXXXXX (also +63 9XX XXX XXXX)",
    },
    "Area": {
        "description": "Area ids from /api/areas: one id, a list, a comma-joined text of ids; or area names",
        "anyOf": [
            CLIENT_ID,
            {"type": "array", "minItems": 1, "maxItems": 20, "items": {"anyOf": [CLIENT_ID, text(100)]}},
            text(2100),
        ],
    },
    "sched_stat_id": {
        "type": "integer",
        "enum": [1, 2, 3, 4],
        "description": "1 Collecting, 2 Pending (unless told), 3 Collected, 4 Cancelled",
    },
    "Date_of_collection": DATE_2000S,
}
CLIENT_SCHEDULE_ANSWER = obj(
    {"success": {"type": "boolean"}, "message": STR, "Schedule_id": INT, "schedule": {"type": "object"}},
    "success",
    "Schedule_id",
    "schedule",
)
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

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.household.schedules", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
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
    # What the household screen of the spec's client reads (plain lists).
    ("api.household_client.schedules", "GET"): {
        "response": {"type": "array", "items": {"type": "object"}},
        "summary": "Collection schedule rows, latest date first (a plain list, at most 10,000), with the "
        "client's Schedule_id, Account_id, Collector, Contact, Area, AreaName, sched_stat_id, "
        "Date_of_collection beside our fields",
        "query": {**Q, "status": SCHEDULE_FIELDS["status"]},
        "errors": ["400"],
    },
    ("api.household_client.create_schedule", "POST"): {
        "summary": "Add a collection schedule in the client's names",
        "body": obj(CLIENT_SCHEDULE_FIELDS, "Account_id", "Contact", "Area", "Date_of_collection"),
        "response": CLIENT_SCHEDULE_ANSWER,
        "status": 201,
        "errors": ["400", "415"],
    },
    ("api.household_client.update_schedule", "PUT"): {
        "summary": "Change the fields sent of a collection schedule, in the client's names",
        "body": obj(CLIENT_SCHEDULE_FIELDS),
        "response": CLIENT_SCHEDULE_ANSWER,
        "errors": ["400", "404", "415"],
    },
    ("api.household_client.delete_schedule", "DELETE"): {
        "summary": "Delete a collection schedule",
        "errors": ["404"],
    },
    ("api.household_client.areas", "GET"): {
        "response": {
            "type": "array",
            "items": obj(
                {"Area_id": INT, "Area_Name": STR, "name": STR, "schedules": INT}, "Area_id", "Area_Name"
            ),
        },
        "summary": "The barangay's areas, A to Z, each with how many schedules cover it",
        "errors": [],
    },
    ("api.household_client.operators", "GET"): {
        "response": {
            "type": "array",
            "items": obj(
                {
                    "Account_id": INT,
                    "Username": STR,
                    "name": STR,
                    "contact": {"type": "string", "nullable": True},
                    "schedules": INT,
                },
                "Account_id",
                "Username",
            ),
        },
        "summary": "The accounts that can collect (active operators), by name A to Z",
        "errors": [],
    },
    ("api.household.leaderboard", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
        "response": page_of(),
        "summary": "Household members ranked by points",
        "query": {**Q, "status": {"type": "string", "enum": ["Active", "Inactive"]}, **PAGING},
        "errors": ["400"],
    },
    ("api.household.rewards", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
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
    ("api.household.credit_waste", "POST"): {
        "summary": "Credit a household for food waste handed in (points by the rule in force at collectedAt)",
        "body": obj(
            {
                "wasteKg": {**KG, "exclusiveMinimum": True},
                "collectedAt": {
                    "type": "string",
                    "format": "date-time",
                    "description": "When it was collected, with its offset; now when absent; at most 7 days ago",
                },
            },
            "wasteKg",
        ),
        "status": 201,
        "errors": ["400", "404", "409", "415", "422"],
    },
    ("api.household.claims", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
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
}
OPERATIONS[("api.household.update_point_rule", "PATCH")] = OPERATIONS[
    ("api.household.update_point_rule", "PUT")
]
