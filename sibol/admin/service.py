"""Account administration rules: create, edit, enable/disable, the last-admin guard, the audit
trail. Approving and rejecting sign-ups is sibol/admin/approval.py; the lists, queries.py.

Every write commits once; e-mail goes out after the commit (a mail failure never undoes it).
Raises Invalid (400), NotFound (404) and Conflict (409) from sibol.errors.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from .. import emails
from ..data.locks import take_write_lock
from ..data.rows import get_by_id
from ..errors import Conflict, Invalid, NotFound
from ..extensions import db
from ..household.residents.service import ensure_member_for
from ..i18n.languages import N_
from ..identity import tenancy, usernames
from ..identity.onetime import set_password_url
from ..identity.passwords import (
    MAX_PASSWORD_LENGTH,
    MIN_PASSWORD_LENGTH,
    TEMPORARY_PASSWORD_LIFETIME,
    hash_password,
    meets_password_rule,
    password_advice,
)
from ..identity.sessions import end_everything
from ..inputs.fields import EMAIL_RE
from ..models import (
    ROLE_DEFAULT_MODULES,
    Account,
    AccountStatus,
    Barangay,
    Module,
    ModuleId,
    Role,
    RoleId,
    account_modules,
    utcnow,
)
from ..models.admin import AuditAction, AuditEntry
from .queries import modules
from .serializers import account_json as account_json

NAME_MAX = 100
LAST_ADMIN = N_(
    "%(name)s is the last active administrator: another active administrator must exist "
    "before this account can be disabled, demoted or lose Admin access."
)


def find_account(account_id: int) -> Account | None:
    return get_by_id(Account, account_id)


def get_account(account_id: int) -> Account:
    account = get_by_id(Account, account_id)
    if account is None:
        raise NotFound(_("Account not found."))
    return account


# Validation helpers -------------------------------------------------------------------------


def check_role(role_id: int) -> Role:
    role = get_by_id(Role, role_id)
    if role is None:
        raise Invalid(_("Unknown role %(role_id)s.", role_id=role_id), field="Roles")
    if role.id == RoleId.CITY_ADMIN and not tenancy.acting_as_city_admin():
        raise Invalid(_("Only a City Admin can give the City Admin role."), field="Roles")
    return role


def resolve_modules(values: Iterable) -> list[Module]:
    """Modules from ids, digit strings, keys or names (the spec's Access holds either)."""
    known = modules()
    by_id = {m.id: m for m in known}
    by_name = {}
    for m in known:
        by_name[m.key.lower()] = m
        by_name[m.name.lower()] = m
    chosen: dict[int, Module] = {}
    for value in values:
        module = None
        if isinstance(value, bool):
            module = None
        elif isinstance(value, int):
            module = by_id.get(value)
        elif isinstance(value, str):
            text = value.strip()
            module = (
                by_id.get(int(text)) if text.isdecimal() and len(text) < 10 else by_name.get(text.lower())
            )
        elif isinstance(value, dict):  # {Module_id: ...} objects as the module list sends them
            raw = value.get("Module_id", value.get("id"))
            module = by_id.get(raw) if isinstance(raw, int) and not isinstance(raw, bool) else None
        if module is None:
            raise Invalid(_("Unknown module %(value)s.", value=repr(value)), field="Access")
        chosen[module.id] = module
    return [chosen[k] for k in sorted(chosen)]


def check_barangay(barangay_id: int | None) -> int | None:
    if barangay_id is None:
        return None
    if get_by_id(Barangay, barangay_id) is None:
        # Another barangay's id is not found, as one that does not exist (404, not 403).
        raise NotFound(_("Unknown barangay %(barangay_id)s.", barangay_id=barangay_id), field="Barangay_id")
    return barangay_id


def _is_admin_holder(account: Account) -> bool:
    """An account that can administer: approved, enabled, role Admin and module 6."""
    return (
        account.status == AccountStatus.ACTIVE
        and bool(account.is_enabled)
        and account.role_id == RoleId.ADMIN
        and account.has_module(ModuleId.ADMIN)
    )


def _other_active_admins(account_id: int, barangay_id: int | None = None) -> int:
    """Active admins besides this one. Serialised with the write that follows: SQLite takes the
    write lock first (BEGIN IMMEDIATE), MySQL locks the admin rows in id order, so two admins
    demoting each other at once run one after the other and cannot both pass the check."""
    take_write_lock()
    ids = db.session.scalars(
        select(Account.id)
        .join(account_modules, account_modules.c.account_id == Account.id)
        .where(
            Account.status == AccountStatus.ACTIVE,
            Account.is_enabled.is_(True),
            Account.role_id == int(RoleId.ADMIN),
            account_modules.c.module_id == int(ModuleId.ADMIN),
            # A barangay keeps its own last Admin (the City Admin sees every barangay).
            *([Account.barangay_id == barangay_id] if barangay_id is not None else []),
        )
        .order_by(Account.id)
        .with_for_update()
    ).all()
    return sum(1 for found in ids if found != account_id)


def _guard_last_admin(account: Account) -> None:
    if _other_active_admins(account.id, account.barangay_id) == 0:
        raise Conflict(_(LAST_ADMIN, name=account.username), field="Account_id")


def audit(action: AuditAction, actor: Account, target: Account, **details) -> None:
    db.session.add(
        AuditEntry(
            action=str(action),
            actor_id=actor.id,
            actor_username=actor.username,
            target_id=target.id,
            target_username=target.username,
            details=json.dumps(details, sort_keys=True) if details else None,
        )
    )


def _commit_unique(*, flush_only: bool = False) -> None:
    """Commit (or flush); a unique-constraint race (two creates at once) becomes a 409, not a 500."""
    try:
        db.session.flush() if flush_only else db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(_("An account with this username or e-mail already exists.")) from None


# Writes ----------------------------------------------------------------------------------


@dataclass
class Created:
    account: Account
    set_password_link_sent: bool
    # When the password the administrator typed stops signing in (a temporary one), else None.
    password_expires_at: datetime | None = None


def _password_expiry(password: str | None) -> datetime | None:
    """None for no password or one that meets the rule; for one that does not (such as the 8
    lowercase letters and digits the spec's client generates for a blank field), the end of
    the temporary password's life. Refuses one shorter than the spec's minimum or too long."""
    if not password or meets_password_rule(password):
        return None
    if len(password) > MAX_PASSWORD_LENGTH:
        raise Invalid(password_advice(password) or "", field="Password")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise Invalid(
            _(
                "A temporary password needs at least %(count)s characters. Leave it blank to e-mail "
                "the user a link to set their own.",
                count=MIN_PASSWORD_LENGTH,
            ),
            field="Password",
        )
    return utcnow() + TEMPORARY_PASSWORD_LIFETIME


def create_account(
    actor: Account,
    *,
    first_name: str,
    last_name: str,
    email: str,
    role_id: int,
    module_values: Iterable | None = None,
    barangay_id: int | None = None,
    username: str | None = None,
    password: str | None = None,
) -> Created:
    """A new active account. Username derived from the names (made unique) unless given.
    With a blank password the user gets a single-use set-password link by e-mail. A password
    typed by the admin that meets the password rule is the account's password; one that does
    not is temporary: it signs in for 72 hours or until the user sets their own (the page
    sign-in then asks for it), and the e-mail carries the set-password link as well. A typed
    password is never echoed back or mailed."""
    first_name, last_name = first_name.strip(), last_name.strip()
    email = email.strip().lower()  # stored normalised: unique without regard to case
    if not EMAIL_RE.match(email):
        raise Invalid(_("Enter a valid email"), field="Email")
    role = check_role(role_id)
    chosen = (
        resolve_modules(module_values)
        if module_values is not None
        else resolve_modules(ROLE_DEFAULT_MODULES[RoleId(role.id)])
    )
    check_barangay(barangay_id)
    if role.id == RoleId.CITY_ADMIN:
        barangay_id = None  # a City Admin belongs to no barangay
    with tenancy.unscoped():  # e-mails are unique over the installation
        taken = db.session.scalar(select(Account.id).where(func.lower(Account.email) == email.lower()))
    if taken:
        raise Conflict(_("An account with this e-mail already exists."), field="Email")
    derived = usernames.from_names(first_name, last_name)
    if username and username.strip().lower() == derived:
        username = None  # the spec client sends the same derivation: made unique like ours
    if username:
        username = username.strip()
        if not usernames.is_valid(username):
            raise Invalid(
                _("Username may hold only letters, digits, dot, underscore and hyphen (at most 30)."),
                field="Username",
            )
        if usernames.is_taken(username):
            raise Conflict(_("An account with this username already exists."), field="Username")
    else:
        username = usernames.unique(derived)
    expires_at = _password_expiry(password)
    account = Account(
        username=username,
        first_name=first_name,
        last_name=last_name,
        email=email,
        barangay_id=barangay_id,
        role_id=role.id,
        status=AccountStatus.ACTIVE,
        is_enabled=True,
        password_hash=hash_password(password) if password else None,
        password_expires_at=expires_at,
        modules=chosen,
    )
    db.session.add(account)
    _commit_unique(flush_only=True)
    link = set_password_url(account) if not password or expires_at else None
    ensure_member_for(account)  # created active: a Household account gets its household now
    audit(AuditAction.CREATE, actor, account, role=role.id, access=[m.id for m in chosen])
    _commit_unique()
    emails.send_email(
        account.email,
        _l("Your account was created"),
        "account_created",
        account=account,
        set_password_url=link,
        temporary_password=expires_at is not None,
        role_name=role.name,
    )
    return Created(account, link is not None, expires_at)


def update_account(
    actor: Account, account_id: int, *, role_id: int | None, module_values: Iterable | None
) -> Account:
    """Change the role and/or module access only. None leaves that part as it is."""
    account = get_account(account_id)
    before = {"role": account.role_id, "access": sorted(account.module_ids)}
    role = check_role(role_id) if role_id is not None else account.role
    chosen = resolve_modules(module_values) if module_values is not None else list(account.modules)
    after: dict[str, Any] = {"role": role.id, "access": [m.id for m in chosen]}
    if before == after:
        return account
    was_admin = _is_admin_holder(account)
    stays_admin = role.id == RoleId.ADMIN and int(ModuleId.ADMIN) in after["access"]
    if was_admin and not stays_admin:
        _guard_last_admin(account)
    account.role_id = role.id
    account.role = role
    account.modules = chosen
    if role.id == RoleId.CITY_ADMIN:
        account.barangay_id = None
    elif account.barangay_id is None:  # a City Admin made a barangay role: the chosen barangay's
        scope = tenancy.current_scope()
        if scope is None:
            raise tenancy.NeedsBarangay()
        account.barangay_id = scope
    audit(AuditAction.EDIT, actor, account, before=before, after=after)
    db.session.commit()
    return account


def set_active(actor: Account, account_id: int, active: bool) -> Account:
    """Enable or disable. Disabling ends the user's page sessions and revokes their tokens in
    the same transaction, so their next request is refused."""
    account = get_account(account_id)
    if bool(account.is_enabled) == active:
        return account
    if not active:
        if account.id == actor.id:
            raise Conflict(_("You cannot disable your own account."), field="Account_id")
        if _is_admin_holder(account):
            _guard_last_admin(account)
        account.is_enabled = False
        end_everything(account)
    else:
        account.is_enabled = True
    audit(AuditAction.ENABLE if active else AuditAction.DISABLE, actor, account)
    db.session.commit()
    return account


def apply_role(account: Account, role: Role) -> None:
    """Approving with another role: that role and its default modules."""
    if role.id == account.role_id:
        return
    ids = ROLE_DEFAULT_MODULES[RoleId(role.id)]
    account.role_id, account.role = role.id, role
    account.modules = [m for m in db.session.query(Module).order_by(Module.id) if m.id in ids]
