"""/api/auth in the OpenAPI document (sign-in, sign-up, passwords, Google); sibol/api/schemas.py merges it."""

from __future__ import annotations

from ..api.schemas import EMAIL, ID, MODULE_ID, NAME, PASSWORD, RESET_CODE, ROLE_ID, STR, answer, obj, text

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.auth.login", "POST"): {
        "response": obj(
            {
                "success": {"type": "boolean"},
                "message": STR,
                "token": STR,
                "accessToken": STR,
                "user": {"type": "object"},
                "totpEnrollmentRequired": {
                    "type": "boolean",
                    "description": "SIBOL_REQUIRE_2FA asks this account for a second factor it has not "
                    "set up: the token opens only /api/me/totp* until it has",
                },
            },
            "success",
            "token",
            "user",
        ),
        "summary": "Sign in with a username (or e-mail) and password; answers a bearer token. 429 while "
        "the name is locked for this address, or slowed down after wrong passwords from many addresses. "
        "An account with two-step sign-in answers 401 {totpRequired: true, field: totp} without `totp`; "
        "a wrong code is 401 naming totp and counts as a wrong password",
        "body": obj(
            {
                "username": text(254, "Username or e-mail"),
                "password": {"type": "string", "maxLength": 256},
                "totp": text(40, "The authenticator app's 6-digit code, or an unused recovery code"),
            },
            "username",
            "password",
        ),
        "errors": ["400", "401", "403", "415", "429"],
    },
    ("api.auth.logout", "POST"): {
        "summary": "Sign out: revokes the bearer token with the page session its sign-in opened, and "
        "ends the cookie's session",
        "errors": ["400"],
    },
    ("api.auth.allowed_modules", "GET"): {
        "response": {
            "type": "array",
            "items": obj(
                {"key": STR, "name": STR, "path": STR, "Module_id": MODULE_ID},
                "key",
                "name",
                "path",
            ),
        },
        "summary": "The modules the signed-in account holds: a plain list (spec section 3); no entry "
        "carries `id`, which the spec's client reads as the Admin mark when it is 1",
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
}
