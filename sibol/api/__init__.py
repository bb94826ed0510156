"""Shared /api plumbing: the parent blueprint, JSON bodies, field parsing, CORS (paging: sibol.data.listing)."""

from __future__ import annotations

from typing import Any, Literal, overload

from flask import Blueprint, Flask, current_app, request
from flask_babel import gettext as _

from ..data.rows import MAX_ID
from ..errors import Invalid, TooLarge, Unsupported, is_api_path
from ..inputs.fields import required_message
from ..inputs.jsonbody import parse_object
from ..inputs.jsonlimits import MAX_JSON_BYTES
from ..inputs.numbers import whole_text


def json_body(*, required: bool = True) -> dict[str, Any]:
    """The request's JSON object. Raises Invalid/Unsupported/TooLarge with a readable message."""
    if (request.content_length or 0) > MAX_JSON_BYTES:
        raise TooLarge(_("The request body is too large (1 MB at most)."), field="body")
    data = request.get_data(cache=True)
    if not data:
        if required:
            raise Invalid(_("Send a JSON object in the request body."), field="body")
        return {}
    if not request.is_json:
        raise Unsupported(_("Send the body as JSON (Content-Type: application/json)."))
    if len(data) > MAX_JSON_BYTES:
        raise TooLarge(_("The request body is too large (1 MB at most)."), field="body")
    return parse_object(data)


def pick(body: dict, *names: str, default: Any = None) -> Any:
    """The first present value among alternative spellings (the spec sends several)."""
    for name in names:
        if name in body and body[name] is not None:
            return body[name]
    return default


@overload
def text_field(
    body: dict,
    *names: str,
    label: str | None = ...,
    required: Literal[True] = ...,
    max_length: int = ...,
    strip: bool = ...,
) -> str: ...
@overload
def text_field(
    body: dict, *names: str, label: str | None = ..., required: bool, max_length: int = ..., strip: bool = ...
) -> str | None: ...
def text_field(
    body: dict,
    *names: str,
    label: str | None = None,
    required: bool = True,
    max_length: int = 255,
    strip: bool = True,
) -> str | None:
    label = label or names[0]
    value = pick(body, *names)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise Invalid(required_message(label), field=names[0])
        return None
    if not isinstance(value, str):
        raise Invalid(_("%(label)s must be text.", label=label), field=names[0])
    if strip:
        value = value.strip()
    if len(value) > max_length:
        raise Invalid(
            _("%(label)s must be at most %(max_length)s characters.", label=label, max_length=max_length),
            field=names[0],
        )
    return value


@overload
def int_field(
    body: dict, *names: str, label: str | None = ..., required: Literal[True] = ..., minimum: int = ...
) -> int: ...
@overload
def int_field(
    body: dict, *names: str, label: str | None = ..., required: bool, minimum: int = ...
) -> int | None: ...
def int_field(
    body: dict, *names: str, label: str | None = None, required: bool = True, minimum: int = 1
) -> int | None:
    label = label or names[0]
    value = pick(body, *names)
    if value is None or value == "":
        if required:
            raise Invalid(required_message(label), field=names[0])
        return None
    if isinstance(value, bool):
        raise Invalid(_("%(label)s must be a number.", label=label), field=names[0])
    if isinstance(value, str) and value.strip().lstrip("-").isdecimal():
        value = whole_text(value)
        if value is None:  # more digits than any id has
            raise Invalid(_("%(label)s must be a valid number.", label=label), field=names[0])
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        raise Invalid(_("%(label)s must be a whole number.", label=label), field=names[0])
    if value < minimum or value > MAX_ID:
        raise Invalid(_("%(label)s must be a valid number.", label=label), field=names[0])
    return value


def make_api_blueprint() -> Blueprint:
    """A new /api parent per app: tests build many apps."""
    return Blueprint("api", __name__, url_prefix="/api")


def install_cors(app: Flask) -> None:
    """Answer CORS (preflight included) for the origins in SIBOL_CORS_ORIGINS only."""

    @app.before_request
    def preflight():
        if request.method != "OPTIONS" or not is_api_path(request.path):
            return None
        if "Access-Control-Request-Method" not in request.headers:
            return None
        response = current_app.make_response(("", 204))
        return response

    @app.after_request
    def cors_headers(response):
        origin = request.headers.get("Origin", "").rstrip("/")
        if not is_api_path(request.path) or not origin:
            return response
        allowed = current_app.config.get("SIBOL_CORS_ORIGINS") or []
        response.vary.add("Origin")
        if origin not in allowed:
            return response
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Allow-Credentials"] = "true"
        if request.method == "OPTIONS":
            response.headers["Access-Control-Allow-Methods"] = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
            response.headers["Access-Control-Allow-Headers"] = (
                "Authorization, Content-Type, X-CSRFToken, X-Requested-With"
            )
            response.headers["Access-Control-Max-Age"] = "600"
        response.headers["Access-Control-Expose-Headers"] = "Retry-After"
        return response
