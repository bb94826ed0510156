"""Rows by id: the one bound on the ids a database integer holds, and the lookup that keeps to it.

An id past the column's range cannot name a row, and handing it to the driver makes SQLite or
MySQL fail instead of finding nothing; so every id that comes from a path, a form or a JSON body
is read through `as_id` or `get_by_id`.
"""

from __future__ import annotations

from typing import TypeVar

from flask_babel import gettext as _

from ..errors import NotFound
from ..extensions import db
from ..models import Machine

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


def get_machine(machine_id: object) -> Machine:
    """The machine, through the request's barangay scope: NotFound for an unknown, malformed or
    another barangay's id. The one lookup of a machine by id (machines, telemetry, commands)."""
    machine = get_by_id(Machine, machine_id)
    if machine is None:
        raise NotFound(_("Machine not found."))
    return machine
