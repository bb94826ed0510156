"""A page's record by id: the lookup's NotFound as Flask's 404.

Services raise NotFound (a JSON 404 under /api); a page answers the site's own 404 page instead,
and a live fragment's poll (sibol/web/live.py) stops on it. One helper, so no page writes its
own try/except around a lookup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import abort

from ..data.rows import get_machine
from ..errors import NotFound
from ..models import Machine

T = TypeVar("T")


def found_or_404(lookup: Callable[..., T], *args: object) -> T:
    try:
        return lookup(*args)
    except NotFound:
        abort(404)


def machine_or_404(machine_id: object) -> Machine:
    """The machine in the request's barangay scope, or the 404 page."""
    return found_or_404(get_machine, machine_id)
