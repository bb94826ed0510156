"""Who is calling: the machine named by its device key, sent as `Authorization: Device <key>` or as
`X-Device-Key: <key>` (the header SIBOL's own backend names). Every device route requires one."""

from __future__ import annotations

from flask import current_app, request
from flask_babel import gettext as _

from ..errors import Unauthorized
from ..extensions import limiter
from ..models.telemetry import DeviceKey
from ..telemetry import service as telemetry

HEADER = "X-Device-Key"


def _authorization() -> str | None:
    """The request's key as an `Authorization: Device <key>` value: X-Device-Key when sent."""
    raw = request.headers.get(HEADER, "").strip()
    return f"Device {raw}" if raw else request.headers.get("Authorization")


def calling_device() -> DeviceKey:
    """The device of this request's key, or Unauthorized (401 {"success": false, "message"})."""
    header = _authorization()
    if not header:
        raise Unauthorized(
            _(
                "Send the machine's device key: %(a)s or %(b)s.",
                a="X-Device-Key: <key>",
                b="Authorization: Device <key>",
            )
        )
    return telemetry.device_for_header(header)


def _rate_key() -> str:
    return telemetry.rate_key(_authorization())


def _rate() -> str:
    return current_app.config["SIBOL_TELEMETRY_RATE_LIMIT"]


# Each device route is limited per key, as POST /api/telemetry is.
device_rate_limit = limiter.limit(_rate, key_func=_rate_key)
