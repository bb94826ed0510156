"""Who is calling a Flask device route: the machine named by its device key, sent as
`Authorization: Device <key>` or as `X-Device-Key: <key>` (the header SIBOL's own backend names).
Every device route requires one, and counts against the device request limit."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import request
from flask_babel import gettext as _

from ..errors import HTTP_MESSAGES, TooManyRequests, Unauthorized
from ..identity import device_rates
from ..identity.authorization import DEVICE_KEY_HEADER, device_key
from ..models.telemetry import DeviceKey
from . import keys


def _authorization() -> str | None:
    """The request's key as an `Authorization: Device <key>` value (X-Device-Key when sent)."""
    raw = device_key(request.headers)
    return f"Device {raw}" if raw else None


def calling_device() -> DeviceKey:
    """The device of this request's key, or Unauthorized (401 {"success": false, "message"})."""
    header = _authorization()
    if not header:
        raise Unauthorized(
            _(
                "Send the machine's device key: %(a)s or %(b)s.",
                a=f"{DEVICE_KEY_HEADER}: <key>",
                b="Authorization: Device <key>",
            )
        )
    return keys.device_for_header(header)


def check_device_limit(header: str | None) -> None:
    """Count this request on its device (keys.rate_key) in the one device request limit of every
    device route and MQTT topic; TooManyRequests (429 with Retry-After) past it."""
    wait = device_rates.hit(keys.rate_key(header))
    if wait is not None:
        raise TooManyRequests(_(HTTP_MESSAGES[429]), retry_after=wait)


def device_rate_limit(view: Callable[..., Any]) -> Callable[..., Any]:
    """A Flask device route counts against its device's limit, with every other device route."""

    @wraps(view)
    def limited(*args: Any, **kwargs: Any) -> Any:
        check_device_limit(_authorization())
        return view(*args, **kwargs)

    return limited
