"""The OpenAPI 3 document of /api, built from the registered routes.

Every /api rule becomes an operation; what a route reads and answers beyond its path comes
from sibol/api/schemas.py (keyed by endpoint and method): request bodies (one media type, or
several under "bodies"), query parameters, the success status and its content when it is not
JSON ("success_content") or its JSON schema ("response"), and the error statuses. A test compares the document with
app.url_map, so a route added without appearing here fails the suite.
"""

from __future__ import annotations

import re

from flask import Flask

from ..identity.access import PUBLIC, access_of

ERROR = {"$ref": "#/components/schemas/Error"}
ANY_JSON = {"description": "JSON", "content": {"application/json": {"schema": {}}}}
ERROR_TEXT = {
    "400": "Invalid input: the message names the field",
    "401": "Not signed in, or the token is unknown, expired or revoked",
    "403": "Signed in without the module this route needs",
    "404": "No such record",
    "405": "Method not allowed",
    "409": "Conflict with stored data",
    "413": "Upload too large",
    "415": "Body is not JSON",
    "422": "Idempotency-Key already used for another request",
    "429": "Rate limit; see Retry-After",
}
# Every signed-in write may be retried safely (web/idempotency.py).
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "1-255 printable characters; for 24 hours the same key and body replay the first "
    "answer, another body is 422, while the first runs 409",
    "schema": {"type": "string", "minLength": 1, "maxLength": 255},
}
CONVERTERS = {
    "int": {"type": "integer", "minimum": 0},
    "string": {"type": "string"},
    "default": {"type": "string"},
    "path": {"type": "string"},
}
_PARAM = re.compile(r"<(?:(?P<conv>[a-zA-Z_]+)(?:\([^)]*\))?:)?(?P<name>[a-zA-Z_][a-zA-Z0-9_]*)>")


CSV_QUERY = {
    "format": {
        "type": "string",
        "enum": ["csv", "json"],
        "description": "csv: the whole list (every page, same search and filters) as a CSV download",
    }
}


def _with_csv(response: dict) -> dict:
    """A list's success response that may also be a CSV file (format=csv or Accept: text/csv)."""
    csv_body = {
        "schema": {
            "type": "string",
            "description": "UTF-8 with a byte-order mark, CRLF line ends, header row first",
        }
    }
    return {
        **response,
        "description": f"{response.get('description', 'JSON')}, or CSV when asked (format=csv, Accept: text/csv)",
        "content": {**response.get("content", {}), "text/csv": csv_body},
    }


def openapi_path(rule: str) -> tuple[str, list[dict]]:
    params = []

    def replace(match: re.Match) -> str:
        conv = match.group("conv") or "default"
        params.append(
            {
                "name": match.group("name"),
                "in": "path",
                "required": True,
                "schema": CONVERTERS.get(conv, {"type": "string"}),
            }
        )
        return "{" + match.group("name") + "}"

    return _PARAM.sub(replace, rule), params


def api_rules(app: Flask):
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and rule.endpoint != "static":
            yield rule


def collect_operations(app: Flask, modules) -> None:
    """The app factory hands over every feature's openapi module (the document's own route is
    core's); their OPERATIONS describe the routes in /api/openapi.json."""
    found: dict[tuple[str, str], dict] = {}
    for module in modules:
        found.update(module.OPERATIONS)
    app.extensions["sibol_openapi_operations"] = found


def operations(app: Flask) -> dict[tuple[str, str], dict]:
    return app.extensions["sibol_openapi_operations"]


def build_openapi(app: Flask) -> dict:
    paths: dict[str, dict] = {}
    for rule in sorted(api_rules(app), key=lambda r: r.rule):
        path, path_params = openapi_path(rule.rule)
        view = app.view_functions[rule.endpoint]
        summary = ((view.__doc__ or "").strip().splitlines() or [rule.endpoint])[0]
        access = access_of(rule.endpoint, app)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            extra = operations(app).get((rule.endpoint, method), {})
            success = str(extra.get("status", 200))
            redirect = {
                "description": "Redirect to the next page",
                "headers": {"Location": {"schema": {"type": "string"}}},
            }
            if success.startswith("3"):
                responses = {success: redirect}
            elif "success_content" in extra:  # a file, not JSON (e.g. an image)
                responses = {
                    success: {
                        "description": "The file",
                        "content": {
                            media: {"schema": schema} for media, schema in extra["success_content"].items()
                        },
                    }
                }
            elif "response" in extra:  # the JSON schema of the success body
                responses = {
                    success: {
                        "description": "JSON",
                        "content": {"application/json": {"schema": extra["response"]}},
                    }
                }
            else:
                responses = {success: ANY_JSON}
            errors = list(extra.get("errors", ["400", "404", "405", "415"]))
            if extra.get("csv"):  # a list that also answers CSV: a bad format is a 400
                responses[success] = _with_csv(responses[success])
                errors = errors if "400" in errors else ["400", *errors]
            for code in errors:
                responses[code] = {
                    "description": ERROR_TEXT[code],
                    "content": {"application/json": {"schema": ERROR}},
                }
            if access is None or access.kind != PUBLIC:
                responses.setdefault(
                    "401",
                    {"description": ERROR_TEXT["401"], "content": {"application/json": {"schema": ERROR}}},
                )
                responses.setdefault(
                    "403",
                    {"description": ERROR_TEXT["403"], "content": {"application/json": {"schema": ERROR}}},
                )
            for code in extra.get("also", []):
                responses[str(code)] = ANY_JSON
            operation = {
                "operationId": f"{rule.endpoint}.{method.lower()}",
                "summary": extra.get("summary", summary),
                "tags": [rule.endpoint.split(".")[1] if rule.endpoint.startswith("api.") else "core"],
                "parameters": path_params
                + [
                    {"name": name, "in": "query", "required": False, "schema": schema}
                    for name, schema in {
                        **extra.get("query", {}),
                        **(CSV_QUERY if extra.get("csv") else {}),
                    }.items()
                ],
                "responses": responses,
            }
            if method in ("POST", "PUT", "PATCH") and (access is None or access.kind != PUBLIC):
                operation["parameters"].append(IDEMPOTENCY_KEY)
                # A bad key (400), the first request still running (409), another body (422).
                for code in ("400", "409", "422"):
                    responses.setdefault(
                        code,
                        {"description": ERROR_TEXT[code], "content": {"application/json": {"schema": ERROR}}},
                    )
            if access is not None and access.kind == PUBLIC:
                operation["security"] = []
            bodies = extra.get("bodies") or (
                {extra.get("content_type", "application/json"): extra["body"]} if "body" in extra else {}
            )
            if bodies:
                operation["requestBody"] = {
                    "required": extra.get("body_required", True),
                    "content": {media: {"schema": schema} for media, schema in bodies.items()},
                }
            paths.setdefault(path, {})[method.lower()] = operation
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "SIBOL console API",
            "version": "1.0.0",
            "description": "JSON API of the SIBOL console (spec section 7).",
        },
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}, {"session": []}],
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "session": {"type": "apiKey", "in": "cookie", "name": "session"},
            },
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["message", "error"],
                    "properties": {
                        "message": {"type": "string"},
                        "error": {"type": "string"},
                        "field": {"type": "string"},
                        "errors": {
                            "type": "object",
                            "additionalProperties": {"type": "string"},
                            "description": "Field errors {field: message} when a field is named",
                        },
                        "success": {"type": "boolean"},
                    },
                },
            },
        },
        "paths": paths,
    }
