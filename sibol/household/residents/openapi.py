"""OpenAPI descriptions of the residents routes (merged into sibol/api/openapi.py)."""

from __future__ import annotations

from ...api.schemas import ID, PAGING, answer, obj, page_of

CODE = {
    "type": "string",
    "maxLength": 40,
    "description": "The claim code (8 letters and digits), typed or scanned",
}
PNG = {"image/png": {"type": "string", "format": "binary"}}

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.residents.my_household", "GET"): {
        "summary": "My household: balance, reserved points, next collection, affordable rewards, claims, "
        "recent collections, leaderboard (others by first name and initial)",
        "response": obj({"success": {"type": "boolean"}, "points": {"type": "integer"}}, "success", "points"),
        "errors": ["404"],
    },
    ("api.residents.my_collections", "GET"): {
        "summary": "My household's collection history (date, kg, points earned), newest first",
        "response": page_of(),
        "query": PAGING,
        "errors": ["400", "404"],
    },
    ("api.residents.my_claims", "GET"): {
        "summary": "My household's claims, newest first",
        "response": answer("data", "array"),
        "errors": ["404"],
    },
    ("api.residents.request_claim", "POST"): {
        "summary": "Claim a reward: the points are reserved at once; answers the claim with its code",
        "body": obj({"rewardId": {**ID, "description": "Alias: reward_id"}}, "rewardId"),
        "status": 201,
        "errors": ["400", "404", "409", "415"],
    },
    ("api.residents.my_claim", "GET"): {
        "summary": "One of my claims",
        "response": answer("claim"),
        "errors": ["404"],
    },
    ("api.residents.my_claim_qr", "GET"): {
        "summary": "The QR code of one of my claims (PNG)",
        "success_content": PNG,
        "errors": ["404"],
    },
    ("api.residents.cancel_my_claim", "POST"): {
        "summary": "Cancel one of my open claims: the points come back",
        "errors": ["404", "409"],
    },
    ("api.residents.redeem_claim", "POST"): {
        "summary": "Redeem a claim by its code (staff, operators): spends the points for good; "
        "a second redemption answers 409",
        "body": obj({"code": CODE}, "code"),
        "errors": ["400", "404", "409", "415"],
    },
    ("api.residents.claim_by_code", "GET"): {
        "summary": "Look a claim up by its code before redeeming it",
        "response": answer("claim"),
        "errors": ["400", "404"],
    },
    ("api.residents.cancel_claim", "POST"): {
        "summary": "Cancel an open claim (staff): the points go back to the household",
        "errors": ["404", "409"],
    },
    ("api.residents.member_account", "GET"): {
        "summary": "The Household account linked to a member, if any",
        "errors": ["404"],
    },
    ("api.residents.link_member_account", "PUT"): {
        "summary": "Link a member to a Household account by username (empty or null: unlink)",
        "body": obj({"username": {"type": ["string", "null"], "maxLength": 64}}),
        "errors": ["400", "404", "409", "415"],
    },
}
