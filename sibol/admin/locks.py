"""Accounts locked by too many wrong passwords (sibol.identity.lockout): the list and unlocking."""

from __future__ import annotations

from flask_babel import gettext as _

from ..errors import Conflict
from ..extensions import db
from ..identity import lockout
from ..models import Account
from ..models.admin import AuditAction
from ..models.auth import LoginFailures
from .service import audit, get_account


def locked_accounts() -> list[LoginFailures]:
    return lockout.locked_accounts()


def locked_json(row: LoginFailures) -> dict:
    account = row.account
    return {
        "Account_id": row.account_id,
        "Username": account.username if account else None,
        "lockedUntil": row.locked_until.isoformat(timespec="seconds") + "Z" if row.locked_until else None,
        "lockCount": row.lock_count,
    }


def unlock_account(actor: Account, account_id: int) -> Account:
    """Lift the lock and forget the failures; audited. 409 when the account is not locked."""
    account = get_account(account_id)
    if not any(row.account_id == account.id for row in lockout.locked_accounts()):
        raise Conflict(_("%(username)s is not locked.", username=account.username), field="Account_id")
    lockout.unlock(account.id)
    audit(AuditAction.UNLOCK, actor, account)
    db.session.commit()
    return account
