"""Numbers as a JSON body or a form sends them, read so that no size of number can fail later.

JSON puts no bound on an integer's digits and Python reads a 400-digit one exactly; it fails
only where it is used: `float()` and `math.isfinite()` raise OverflowError past about 1e308, a
database refuses it, and `int()` of text longer than 4,300 digits raises ValueError. Each of those
was a 500. Every reader of a number takes it through here first, so a number out of range is an
ordinary refusal that names its field (400 under /api, a field error on a page).
"""

from __future__ import annotations

import math
import re

MAX_DIGITS = 18  # no count, id or amount the console keeps comes near 10**18
_WHOLE = re.compile(r"\s*([+-]?)(\d+)\s*")


def finite(value: object) -> float | None:
    """A JSON number (int or float) as a finite float; None for anything else: booleans, text,
    NaN, the infinities, and integers past a float's range."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def whole_text(text: str, *, max_digits: int = MAX_DIGITS) -> int | None:
    """Decimal text ("42", " -7 ") as an int; None for other text and for more than `max_digits`
    digits (read before converting, so a thousand digits cost nothing)."""
    found = _WHOLE.fullmatch(text)
    if found is None:
        return None
    digits = found.group(2).lstrip("0") or "0"
    if len(digits) > max_digits:
        return None
    return -int(digits) if found.group(1) == "-" else int(digits)
