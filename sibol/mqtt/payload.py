"""A device message's payload as a JSON object, with the HTTP path's limits."""

from __future__ import annotations

import json

from flask_babel import gettext as _

from ..errors import Invalid
from ..inputs.jsonlimits import MAX_JSON_DEPTH, json_depth


def decode(payload: bytes) -> dict:
    """The message's JSON object; Invalid (field "body") names what is wrong."""
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        raise Invalid(_("The message is not UTF-8 text."), field="body") from None
    if json_depth(text) > MAX_JSON_DEPTH:
        raise Invalid(_("The message is nested too deeply."), field="body")
    try:
        body = json.loads(text)
    except ValueError:
        raise Invalid(_("The request body is not valid JSON."), field="body") from None
    if not isinstance(body, dict):
        raise Invalid(_("The request body must be a JSON object."), field="body")
    return body
