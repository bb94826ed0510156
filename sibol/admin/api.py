"""/api/admin/*: spec section 7's account administration calls, plus paging and the audit log."""

from __future__ import annotations

from flask import Blueprint, request
from flask_babel import gettext as _
from flask_login import current_user

from ..api import int_field, json_body, pick, text_field
from ..api.serializers import utc_text
from ..data.export import wants_csv
from ..data.listing import Page, page_args, page_json
from ..errors import Invalid
from ..identity.access import module_required
from ..identity.usernames import USERNAME_MAX
from ..inputs.fields import EMAIL_MAX
from ..models import ModuleId
from . import approval, exports, locks, queries, service
from .serializers import (
    account_json,
    account_row_json,
    audit_json,
    barangay_json,
    module_json,
    pending_json,
    role_json,
)

bp = Blueprint("admin", __name__, url_prefix="/admin")
ADMIN = ModuleId.ADMIN


def _actor():
    return current_user._get_current_object()


def _paging() -> tuple[int, int | None]:
    """page/per_page when asked for; without them the whole list (the spec client pages itself)."""
    if "page" not in request.args and "per_page" not in request.args:
        return 1, None
    return page_args()


def _role_filter() -> int | None:
    raw = request.args.get("role", "").strip()
    if raw in ("", "all"):
        return None
    if not raw.isdecimal() or len(raw) > 9:
        raise Invalid(_("role must be a role id."), field="role")
    return service.check_role(int(raw)).id


def access_values(body: dict) -> list | None:
    """The Access field: a list of module ids or names (or a comma-separated string)."""
    value = pick(body, "Access", "access", "modules", "user_modules")
    if value is None:
        return None
    if isinstance(value, str):
        return [part for part in (p.strip() for p in value.split(",")) if part]
    if not isinstance(value, list):
        raise Invalid(_("Access must be a list of module ids or names."), field="Access")
    if len(value) > 50:
        raise Invalid(_("Access holds too many modules."), field="Access")
    return value


def _page_json(page: Page, key: str, shape) -> dict:
    return page_json(page, shape, (key, "list", "data"))


@bp.get("/accounts")
@module_required(ADMIN)
def accounts():
    q = request.args.get("q", "")
    if len(q) > 100:
        raise Invalid(_("q must be at most 100 characters."), field="q")
    role_id = _role_filter()
    if wants_csv():
        return exports.accounts_csv(q, role_id)
    page, per_page = _paging()
    return _page_json(queries.list_account_rows(q, role_id, page, per_page), "users", account_row_json)


@bp.get("/pending-accounts")
@module_required(ADMIN)
def pending_accounts():
    if wants_csv():
        return exports.pending_csv()
    page, per_page = _paging()
    return _page_json(queries.list_pending(page, per_page), "pendingAccounts", pending_json)


@bp.post("/pending-accounts/<int:account_id>/approve")
@module_required(ADMIN)
def approve(account_id: int):
    body = json_body(required=False)
    role_id = int_field(body, "role", "Roles", "roleId", label=_("Role"), required=False)
    confirm = text_field(body, "confirmRole", label=_("Role confirmation"), required=False, max_length=50)
    account = approval.approve_account(_actor(), account_id, role_id, confirm)
    return {
        "success": True,
        "message": _("Account approved"),
        "user": account_json(account),
        "pendingCount": queries.pending_count(),
    }


@bp.post("/pending-accounts/<int:account_id>/reject")
@module_required(ADMIN)
def reject(account_id: int):
    body = json_body(required=False)
    reason = text_field(
        body, "reason", "Reason", label=_("Reason"), required=False, max_length=approval.REASON_MAX
    )
    account = approval.reject_account(_actor(), account_id, reason)
    return {
        "success": True,
        "message": _("Account rejected"),
        "user": account_json(account),
        "pendingCount": queries.pending_count(),
    }


@bp.post("/create")
@module_required(ADMIN)
def create():
    body = json_body()
    created = service.create_account(
        _actor(),
        first_name=text_field(
            body, "FirstName", "firstName", label=_("First name"), max_length=service.NAME_MAX
        ),
        last_name=text_field(body, "LastName", "lastName", label=_("Last name"), max_length=service.NAME_MAX),
        email=text_field(body, "Email", "email", label=_("Email"), max_length=EMAIL_MAX),
        role_id=int_field(body, "Roles", "roleId", "role", label=_("Role")),
        module_values=access_values(body),
        barangay_id=int_field(body, "Barangay_id", "barangayId", label=_("Barangay"), required=False),
        username=text_field(
            body, "Username", "username", label=_("Username"), required=False, max_length=USERNAME_MAX
        ),
        password=text_field(
            body, "Password", "password", label=_("Password"), required=False, max_length=256, strip=False
        ),
    )
    expires_at = created.password_expires_at
    if expires_at is not None:
        message = _(
            "Account created. The password is temporary: it works for 72 hours, or until the user "
            "sets their own with the link e-mailed to %(email)s.",
            email=created.account.email,
        )
    elif created.set_password_link_sent:
        message = _(
            "Account created. A link to set the password was e-mailed to %(email)s.",
            email=created.account.email,
        )
    else:
        message = _("Account created")
    return {
        "success": True,
        "message": message,
        "user": account_json(created.account),
        "setPasswordLinkSent": created.set_password_link_sent,
        "passwordTemporary": expires_at is not None,
        "passwordExpiresAt": utc_text(expires_at),
    }, 201


@bp.get("/<int:account_id>")
@module_required(ADMIN)
def account(account_id: int):
    found = service.get_account(account_id)
    return {
        "success": True,
        "user": account_json(found),
        "audit": [audit_json(e) for e in queries.recent_audit(found.id)],
    }


ROLE_NAMES = ("Roles", "roleId")
ACCESS_NAMES = ("Access", "access", "modules", "user_modules")


def _refuse_empty_edit(body: dict) -> None:
    """An edit changes the role and/or the access: a body naming neither, or naming one as null
    or empty, is refused (it would answer 200 and change nothing)."""
    for name in (*ROLE_NAMES, *ACCESS_NAMES):
        if name in body and (body[name] is None or body[name] == ""):
            field = "Roles" if name in ROLE_NAMES else "Access"
            what = _("a role id") if field == "Roles" else _("a list of module ids or names")
            raise Invalid(_("%(field)s must be %(what)s, not empty.", field=field, what=what), field=field)
    if not any(name in body for name in (*ROLE_NAMES, *ACCESS_NAMES)):
        raise Invalid(
            _("Send Roles, Access or both: the edit changes an account's role and access."), field="Roles"
        )


@bp.put("/<int:account_id>")
@module_required(ADMIN)
def update(account_id: int):
    body = json_body()
    _refuse_empty_edit(body)
    role_id = int_field(body, "Roles", "roleId", label=_("Role"), required=False)
    values = access_values(body)
    updated = service.update_account(_actor(), account_id, role_id=role_id, module_values=values)
    return {"success": True, "message": _("Account updated"), "user": account_json(updated)}


@bp.patch("/<int:account_id>/active")
@module_required(ADMIN)
def set_active(account_id: int):
    body = json_body()
    value = pick(body, "isActive", "IsActive", "is_active")
    if value is None:
        raise Invalid(_("isActive is required."), field="isActive")
    if isinstance(value, bool):
        active = value
    elif isinstance(value, int) and value in (0, 1):
        active = bool(value)
    else:
        raise Invalid(_("isActive must be true or false."), field="isActive")
    updated = service.set_active(_actor(), account_id, active)
    return {
        "success": True,
        "message": _("Account enabled") if active else "Account disabled",
        "user": account_json(updated),
    }


@bp.get("/<int:account_id>/audit")
@module_required(ADMIN)
def account_audit(account_id: int):
    found = service.get_account(account_id)
    return {"success": True, "entries": [audit_json(e) for e in queries.recent_audit(found.id, 50)]}


@bp.get("/audit")
@module_required(ADMIN)
def audit_log():
    page, per_page = page_args(default_per_page=50)
    return page_json(queries.list_audit(page, per_page), audit_json, ("entries",))


@bp.get("/locked")
@module_required(ADMIN)
def locked_accounts():
    """Accounts locked now by too many wrong passwords."""
    return {"success": True, "locked": [locks.locked_json(r) for r in locks.locked_accounts()]}


@bp.post("/<int:account_id>/unlock")
@module_required(ADMIN)
def unlock(account_id: int):
    """Lift a sign-in lock."""
    account = locks.unlock_account(_actor(), account_id)
    return {
        "success": True,
        "message": _("%(username)s can sign in again", username=account.username),
        "user": account_json(account),
    }


@bp.get("/roles")
@module_required(ADMIN)
def roles():
    return {"success": True, "roles": [role_json(r) for r in queries.roles()]}


@bp.get("/modules")
@module_required(ADMIN)
def modules():
    return {"success": True, "modules": [module_json(m) for m in queries.modules()]}


@bp.get("/barangays")
@module_required(ADMIN)
def barangays():
    return {"success": True, "barangays": [barangay_json(b) for b in queries.barangays()]}
