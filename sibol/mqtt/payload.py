"""A device message's payload as a JSON object, with the HTTP path's limits."""

from __future__ import annotations

from ..inputs.jsonbody import parse_object


def decode(payload: bytes) -> dict:
    """The message's JSON object; Invalid names what is wrong (the one reader of /api bodies)."""
    return parse_object(payload)
