"""Rows by id: the one bound on the ids a database integer holds, and the lookup that keeps to it.

An id past the column's range cannot name a row, and handing it to the driver makes SQLite or
MySQL fail instead of finding nothing; so every id that comes from a path, a form or a JSON body
is read through `as_id` or `get_by_id`.
"""

from __future__ import annotations

from typing import TypeVar

from ..extensions import db

MAX_ID = 2**31 - 1  # the largest id an INTEGER column holds
T = TypeVar("T")


def as_id(value: object) -> int | None:
    """A whole number 1..MAX_ID, given as an int or as decimal text; anything else is None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        if not text.isdecimal() or len(text) > 10:
            return None
        value = int(text)
    if isinstance(value, int) and 1 <= value <= MAX_ID:
        return value
    return None


def get_by_id(model: type[T], row_id: object) -> T | None:
    """The row of `model` with this id, or None for an unknown or malformed id."""
    found = as_id(row_id)
    return None if found is None else db.session.get(model, found)
