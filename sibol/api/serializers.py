"""Spec spellings (section 3) live only here."""

from __future__ import annotations

from datetime import datetime

from ..models import Account, Module


def utc_text(when: datetime | None) -> str | None:
    """A stored (naive UTC) instant as ISO 8601 with a Z, to the second; None stays None."""
    return None if when is None else when.isoformat(timespec="seconds") + "Z"


def password_state(account: Account) -> dict:
    """Whether the account signs in with a temporary password, and until when (the sign-in
    answer carries it beside the spec's fields)."""
    return {
        "passwordTemporary": account.password_is_temporary,
        "passwordExpiresAt": utc_text(account.password_expires_at),
    }


def module_json(module: Module) -> dict:
    return {
        "id": module.id,
        "key": module.key,
        "name": module.name,
        "path": module.path,
        "Module_id": module.id,
        "Module_name": module.name,
        "Path": module.path,
    }


def allowed_module_json(module: Module) -> dict:
    """An entry of GET /api/modules/allowed: key, name, path and the Module_* spellings, but no
    `id`. The spec's client shows the Admin link when the list "includes the admin entry or id 1"
    (section 6), so an `id` holding the module id would mark every account's Dashboard entry as
    the Admin one; the admin entry is known by its key, name and path alone."""
    return {
        "key": module.key,
        "name": module.name,
        "path": module.path,
        "Module_id": module.id,
        "Module_name": module.name,
        "Path": module.path,
    }


def account_fields(account: Account) -> dict:
    """The spec section 3 fields of an account that every account shape carries."""
    return {
        "Account_id": account.id,
        "Username": account.username,
        "FirstName": account.first_name,
        "LastName": account.last_name,
        "Email": account.email,
        "Barangay_id": account.barangay_id,
        "Barangay_Name": account.barangay.name if account.barangay else None,
        "Roles": account.role_id,
        "IsActive": 1 if account.is_enabled else 0,
        "status": account.status,
    }


def user_json(account: Account) -> dict:
    """The `user` stored by the browser: both spellings the spec uses (Roles and roles, roleId and role)."""
    modules = sorted(account.module_ids)
    return {
        **account_fields(account),
        "id": account.id,
        "username": account.username,
        "roles": account.role_id,
        "roleId": account.role_id,
        "role": account.role.name if account.role else None,
        "user_modules": modules,
    }
