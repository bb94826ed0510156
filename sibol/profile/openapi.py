"""OpenAPI descriptions of /api/me (merged into sibol/api/openapi.py)."""

from __future__ import annotations

from ..api.schemas import EMAIL, answer, obj

PROFILE_FIELDS = {
    "firstName": {"type": "string", "maxLength": 100},
    "lastName": {"type": "string", "maxLength": 100},
    "contactNumber": {
        "type": ["string", "null"],
        "maxLength": 40,
        "description": "A phone number; empty clears it",
    },
    "email": {
        **EMAIL,
        "description": "A new address: it takes effect when the link e-mailed to it is opened",
    },
}
SECRET = {"type": "string", "maxLength": 256}

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.profile.me", "GET"): {
        "summary": "The signed-in account's profile",
        "response": answer("user"),
        "errors": [],
    },
    ("api.profile.update_me", "PUT"): {
        "summary": "Change name and contact number; a new e-mail is confirmed by a link sent to it",
        "body": obj(PROFILE_FIELDS),
        "errors": ["400", "409", "415"],
    },
    ("api.profile.change_password", "POST"): {
        "summary": "Change the password (the current one is required); every other session and token "
        "ends. The current password counts with the sign-in lockout: 429 past its limit (and past 10 a minute)",
        "body": obj({"currentPassword": SECRET, "newPassword": SECRET}, "currentPassword", "newPassword"),
        "errors": ["400", "415", "429"],
    },
    ("api.profile.sign_ins", "GET"): {
        "summary": "The last 10 sign-ins: time, address, method (password or google)",
        "response": answer("data", "array"),
        "errors": [],
    },
    ("api.profile.sessions", "GET"): {
        "summary": 'The account\'s active sessions: its browsers (id, name like "Chrome on Android", agent, address; this one marked current) and API tokens',
        "response": answer("data", "array"),
        "errors": [],
    },
    ("api.profile.sign_out_session", "POST"): {
        "summary": "End one of the account's own browser sessions (its id from the sessions list) and "
        "the tokens its sign-in issued; another account's session is 404",
        "errors": ["404"],
    },
    ("api.profile.sign_out_everywhere", "POST"): {
        "summary": "End every session and token of the account, this one included; how many of each ended",
        "errors": [],
    },
    ("api.profile.totp_status", "GET"): {
        "summary": "Two-step sign-in: enabled, pending (a secret waits for its first code), "
        "recoveryCodesLeft, required (SIBOL_REQUIRE_2FA asks it of this account)",
        "errors": [],
    },
    ("api.profile.start_totp", "POST"): {
        "summary": "Start setting up an authenticator app: 201 {secret (base32), otpauthUri}; a new "
        "call replaces a secret still waiting for its first code; 409 when one is already on",
        "status": 201,
        "errors": ["409", "429"],
    },
    ("api.profile.confirm_totp", "POST"): {
        "summary": "The app's first code confirms it: {recoveryCodes: 10 single-use codes, shown only "
        "this once}; a wrong code is 400 naming code; 409 when nothing waits for a code",
        "body": obj({"code": {"type": "string", "maxLength": 20}}, "code"),
        "errors": ["400", "409", "415", "429"],
    },
    ("api.profile.disable_totp", "DELETE"): {
        "summary": "Turn two-step sign-in off with the password and a code (of the app or a recovery "
        "code): 204. A wrong one is 400 naming it and counts with the sign-in lockout (429 past it)",
        "body": obj({"password": SECRET, "code": {"type": "string", "maxLength": 40}}, "password", "code"),
        "status": 204,
        "success_content": {},
        "errors": ["400", "409", "415", "429"],
    },
}
