"""Elevated approval: granting the Admin role on approval needs a second confirmation naming it,
and the approving admin may approve a sign-up with another role instead."""

from __future__ import annotations

from flask_babel import gettext as _

from ..errors import Invalid
from ..extensions import db
from ..i18n.languages import N_
from ..models import ROLE_DEFAULT_MODULES, Account, Module, RoleId
from ..models.core import Role

NEEDS_CONFIRMATION = N_(
    "%(name)s asked for the Admin role: all six modules, including account administration. "
    'To approve as Admin, confirm by naming the role ("Admin"), or approve with another role.'
)


def approval_role(account: Account, role: Role | None, confirm_role: str | None) -> Role:
    """The role the approval grants: `role` when given, else the one the sign-up asked for.
    Admin needs `confirm_role` naming it (case-insensitive); raises Invalid otherwise."""
    chosen = role or account.role
    if chosen.id == RoleId.ADMIN and (confirm_role or "").strip().lower() != chosen.name.lower():
        raise Invalid(
            _(NEEDS_CONFIRMATION, name=account.username),
            field="confirmRole",
            requestedRole=account.role_id,
            requestedRoleName=account.role.name,
        )
    return chosen


def apply_role(account: Account, role: Role) -> None:
    """Approving with another role: that role and its default modules."""
    if role.id == account.role_id:
        return
    ids = ROLE_DEFAULT_MODULES[RoleId(role.id)]
    account.role_id, account.role = role.id, role
    account.modules = [m for m in db.session.query(Module).order_by(Module.id) if m.id in ids]
