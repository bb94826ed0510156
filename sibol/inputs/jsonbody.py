"""The one reader of a JSON object from bytes: an /api body, a device's request, an MQTT message.

Each refusal is Invalid naming the field ("body" for the whole), so every caller answers 400 (or
records a refusal) instead of failing later. JSON may spell a lone UTF-16 surrogate ("\\ud800"),
which Python decodes to a str that no database driver can encode: without the check here it
reached the query (a sign-in's username) or the write and answered 500.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask_babel import gettext as _

from ..errors import Invalid
from .jsonlimits import MAX_JSON_DEPTH, json_depth

_SURROGATE = re.compile("[\ud800-\udfff]")


def parse_object(data: bytes) -> dict[str, Any]:
    """The JSON object in `data` (UTF-8). Invalid names what is wrong, and where."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:  # said as such: a device's firmware sending Latin-1 learns why
        raise Invalid(_("The message is not UTF-8 text."), field="body") from None
    if json_depth(text) > MAX_JSON_DEPTH:
        raise Invalid(
            _(
                "The request body is nested too deeply (%(max_json_depth)s levels at most).",
                max_json_depth=MAX_JSON_DEPTH,
            ),
            field="body",
        )
    try:
        body = json.loads(text)
    except ValueError:  # truncated text, a bad escape, a stray comma
        raise Invalid(_("The request body is not valid JSON."), field="body") from None
    if not isinstance(body, dict):
        raise Invalid(_("The request body must be a JSON object."), field="body")
    field = surrogate_field(body)
    if field is not None:
        raise Invalid(_("%(field)s contains a character that is not valid text.", field=field), field=field)
    return body


def surrogate_field(value: Any, path: str = "") -> str | None:
    """Where a lone surrogate stands in a parsed JSON value ("name", "items[2].note"), else None.
    A key that holds one is named by its object (or "body" at the top)."""
    if isinstance(value, str):
        return (path or "body") if _SURROGATE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if _SURROGATE.search(key):
                return path or "body"
            found = surrogate_field(item, f"{path}.{key}" if path else key)
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = surrogate_field(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None
