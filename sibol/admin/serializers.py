"""Spec section 3 spellings of the admin screen (Account_id, Pending_id, Roles_id, ...)."""

from __future__ import annotations

from typing import Any

from ..api.serializers import account_fields, module_json
from ..models import MODULES, ROLE_NAMES, Account, Barangay, ModuleId, Role, RoleId
from ..models.admin import AuditEntry
from . import queries

STATUS_LABELS = {
    "active": "Active",
    "pending": "Awaiting approval",
    "email_pending": "E-mail not verified",
    "rejected": "Rejected",
}


def status_label(account: Any) -> str:
    if account.status == "active" and not account.is_enabled:
        return "Disabled"
    return STATUS_LABELS.get(account.status, account.status)


def account_json(account: Account) -> dict:
    return {
        **account_fields(account),
        "Role_name": account.role.name if account.role else None,
        "Access": sorted(account.module_ids),
        "Access_names": [m.name for m in account.modules],
        "status_label": status_label(account),
        "created_at": account.created_at.isoformat() + "Z" if account.created_at else None,
    }


def account_row_json(item: tuple) -> dict:
    """account_json of a queries.list_account_rows item: the same keys and values."""
    row, modules = item
    return {
        "Account_id": row.id,
        "Username": row.username,
        "FirstName": row.first_name,
        "LastName": row.last_name,
        "Email": row.email,
        "Barangay_id": row.barangay_id,
        "Barangay_Name": row.barangay_name,
        "Roles": row.role_id,
        "IsActive": 1 if row.is_enabled else 0,
        "status": row.status,
        "Role_name": row.role_name,
        "Access": sorted(module_id for module_id, _ in modules),
        "Access_names": [name for _, name in modules],
        "status_label": status_label(row),
        "created_at": row.created_at.isoformat() + "Z" if row.created_at else None,
    }


def pending_json(account: Account) -> dict:
    body = account_json(account)
    body["Pending_id"] = account.id
    body["is_sso"] = bool(account.is_sso)
    return body


def role_json(role: Role) -> dict:
    return {"Roles_id": role.id, "Roles": role.name, "id": role.id, "name": role.name}


def barangay_json(barangay: Barangay) -> dict:
    return {
        "Barangay_id": barangay.id,
        "Barangay_Name": barangay.name,
        "id": barangay.id,
        "name": barangay.name,
    }


ACTION_TEXT = {
    "create": "created the account",
    "edit": "changed role or access",
    "disable": "disabled the account",
    "enable": "enabled the account",
    "approve": "approved the account",
    "reject": "rejected the account",
    "totp_enrol": "set up two-step sign-in",
    "totp_disable": "turned off two-step sign-in",
    "recovery_code_used": "signed in with a recovery code",
}


def _role_name(role_id) -> str:
    try:
        return ROLE_NAMES[RoleId(role_id)]
    except (ValueError, KeyError):
        return str(role_id)


def _module_names(ids) -> str:
    names = []
    for module_id in ids or []:
        try:
            names.append(MODULES[ModuleId(module_id)][1])
        except (ValueError, KeyError):
            names.append(str(module_id))
    return ", ".join(names) or "none"


def audit_summary(entry: AuditEntry, details: dict) -> str:
    text = f"{entry.actor_username} {ACTION_TEXT.get(entry.action, entry.action)}"
    before, after = details.get("before"), details.get("after")
    if isinstance(before, dict) and isinstance(after, dict):
        changes = []
        if before.get("role") != after.get("role"):
            changes.append(f"role {_role_name(before.get('role'))} to {_role_name(after.get('role'))}")
        if before.get("access") != after.get("access"):
            changes.append(
                f"access {_module_names(before.get('access'))} to {_module_names(after.get('access'))}"
            )
        text += ": " + "; ".join(changes)
    elif entry.action == "create" and "role" in details:
        text += f" as {_role_name(details['role'])} with {_module_names(details.get('access'))}"
    elif entry.action == "reject":
        text += f": {details['reason']}" if details.get("reason") else " (no reason given)"
    return text


def audit_json(entry: AuditEntry) -> dict:
    details = queries.audit_details(entry)
    return {
        "id": entry.id,
        "action": entry.action,
        "summary": audit_summary(entry, details),
        "actor_id": entry.actor_id,
        "actor": entry.actor_username,
        "target_id": entry.target_id,
        "target": entry.target_username,
        "details": details,
        "at": entry.created_at.isoformat() + "Z",
    }


__all__ = [
    "account_json",
    "account_row_json",
    "audit_json",
    "barangay_json",
    "module_json",
    "pending_json",
    "role_json",
]
