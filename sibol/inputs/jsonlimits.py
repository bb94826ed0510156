"""Limits a JSON body must keep before it is parsed: size and nesting depth.

Python's json module recurses once per level, so a body nested thousands of levels deep made
every JSON endpoint fail with RecursionError (500). The depth is measured first, without
recursion, on the brackets outside strings.
"""

from __future__ import annotations

import re

MAX_JSON_BYTES = 1024 * 1024  # no JSON body of this API comes near 1 MB
MAX_JSON_DEPTH = 32  # the deepest body the API reads is 3 levels
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """The deepest nesting of arrays/objects in `text` (strings skipped); no parsing."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest
