"""The `Authorization` header, read one way for every scheme the console accepts.

RFC 9110 (section 11.1) makes the scheme case-insensitive, so `Bearer`, `bearer` and `BEARER`
name one scheme, and spaces around the credentials carry no meaning. Every reader of the header
(bearer tokens, device keys, and the device rate limit keyed on what they name) goes through
`credentials`, so two spellings of one credential can never be told apart. A device may send
its key as `X-Device-Key` instead (SIBOL's own backend names that header): `device_key` reads
both, for every reader of a device's key (its routes, idempotency).
"""

from __future__ import annotations

from collections.abc import Mapping

from werkzeug.datastructures import Headers

DEVICE_KEY_HEADER = "X-Device-Key"


def credentials(header: str | None, scheme: str) -> str | None:
    """What follows `scheme` in the header, without the spaces around it; None when the header
    names another scheme or carries nothing after it."""
    parts = (header or "").strip().split(None, 1)
    if len(parts) != 2 or parts[0].lower() != scheme.lower():
        return None
    return parts[1].strip() or None


def device_key(headers: Headers | Mapping[str, str]) -> str | None:
    """The device key a request carries: X-Device-Key when sent, else `Authorization: Device`."""
    raw = (headers.get(DEVICE_KEY_HEADER) or "").strip()
    return raw or credentials(headers.get("Authorization"), "Device")
