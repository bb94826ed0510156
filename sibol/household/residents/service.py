"""What other features use of the residents' side of households: the one module they import it
through (approving or creating a Household account gives it its household; reminders are set on
My household and on a member's account page)."""

from __future__ import annotations

from flask import url_for

from .resident import ensure_member_for as ensure_member_for
from .resident import linked_account as linked_account
from .resident import member_of as member_of


def my_household_url(**values) -> str:
    """My household, the resident's own page (`_anchor` and query values as url_for takes them)."""
    return url_for("residents.my_household", **values)


def member_account_url(member_id: int, **values) -> str:
    """A member's account page, as staff see it."""
    return url_for("residents.member_account", member_id=member_id, **values)
