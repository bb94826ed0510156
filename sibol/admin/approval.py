"""Approving and rejecting sign-ups. Elevated approval: granting the Admin role on approval needs
a second confirmation naming it, and the approving admin may approve a sign-up with another role
instead. Every write commits once; the e-mail goes out after the commit."""

from __future__ import annotations

from flask import current_app
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from .. import emails
from ..errors import Conflict, Invalid
from ..extensions import db
from ..household.residents.service import ensure_member_for
from ..i18n.languages import N_
from ..identity.onetime import set_password_url
from ..identity.tokens import revoke_all_tokens
from ..models import Account, AccountStatus, RoleId
from ..models.admin import AuditAction
from ..models.core import Role
from .service import apply_role, audit, check_role, get_account

REASON_MAX = 500
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


def _pending(account_id: int) -> Account:
    account = get_account(account_id)
    if account.status != AccountStatus.PENDING:
        raise Conflict(
            _("Only accounts awaiting approval can be approved or rejected."), status=account.status
        )
    return account


def approve_account(
    actor: Account, account_id: int, role_id: int | None = None, confirm_role: str | None = None
) -> Account:
    """Pending -> active, with the role asked for or `role_id`; Admin needs `confirm_role` naming
    it. An account without a password gets a single-use set-password link."""
    account = _pending(account_id)
    requested = account.role_id
    role = approval_role(account, check_role(role_id) if role_id is not None else None, confirm_role)
    apply_role(account, role)
    account.status = AccountStatus.ACTIVE
    account.is_enabled = True
    account.rejection_reason = None
    link = set_password_url(account) if not account.password_hash else None
    ensure_member_for(account)  # a Household account gets its household
    audit(
        AuditAction.APPROVE,
        actor,
        account,
        **({"role": role.id, "requestedRole": requested} if role.id != requested else {}),
    )
    db.session.commit()
    emails.send_email(
        account.email,
        _l("Your account was approved"),
        "account_approved",
        account=account,
        set_password_url=link,
    )
    return account


def reject_account(actor: Account, account_id: int, reason: str | None) -> Account:
    reason = (reason or "").strip() or None
    if reason and len(reason) > REASON_MAX:
        raise Invalid(
            _("The reason must be at most %(reason_max)s characters.", reason_max=REASON_MAX), field="reason"
        )
    account = _pending(account_id)
    account.status = AccountStatus.REJECTED
    account.rejection_reason = reason
    revoke_all_tokens(account.id)
    audit(AuditAction.REJECT, actor, account, reason=reason)
    db.session.commit()
    emails.send_email(
        account.email,
        _l("Your account registration was rejected"),
        "account_rejected",
        account=account,
        reason=reason,
    )
    current_app.logger.info("Account %s rejected by %s", account.username, actor.username)
    return account
