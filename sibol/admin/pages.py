"""/admin: account administration, and the barangay's areas, as server pages that work without JavaScript.

The island on the page adds the create/edit modal and does the row actions through /api/admin;
without JavaScript the same actions are plain form posts here (with CSRF).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from ..data.export import wants_csv
from ..data.listing import PAGE_SIZES, page_args_lenient, page_link
from ..errors import Conflict, Invalid, ServiceError
from ..identity import tenancy
from ..identity.access import module_required
from ..inputs.fields import EMAIL_MAX
from ..machines import service as areas
from ..models import Account, ModuleId
from ..web.safe_actions import confirmation_page, drop_undo, needs_confirmation, offer_undo
from . import approval, exports, locks, queries, service
from .serializers import audit_json, barangay_json, module_json, role_json, status_label

bp = Blueprint("admin", __name__)
ADMIN = ModuleId.ADMIN
TABS = ("accounts", "approval")


def _actor():
    return current_user._get_current_object()


def _role_arg(known: set[int]) -> int | None:
    raw = request.args.get("role", "").strip()
    return int(raw) if raw.isdecimal() and len(raw) < 10 and int(raw) in known else None


def _row_action(run: Callable[[], Any], done: Callable[[Any], str]):
    """A row action posted from the list: `run()` calls the service, `done(result)` says what
    happened; a refusal is flashed instead. Either way the list it came from shows again."""
    try:
        result = run()
    except ServiceError as err:
        flash(err.message, "error")
    else:
        flash(done(result), "success")
    return redirect(_back())


def _back() -> str:
    """Where a form post returns: the list view it came from (same-site /admin paths only)."""
    target = request.form.get("next", "")
    if target.startswith("/admin") and not target.startswith("//") and "\\" not in target:
        return target
    return url_for("admin.index")


def _island_props(roles, modules, barangays) -> dict:
    return {
        "roles": [role_json(r) for r in roles],
        "modules": [module_json(m) for m in modules],
        "barangays": [barangay_json(b) for b in barangays],
        "roleDefaults": queries.role_defaults(),
    }


@bp.get("/admin")
@module_required(ADMIN)
def index():
    tab = request.args.get("tab", "accounts")
    tab = tab if tab in TABS else "accounts"
    roles, modules, barangays = queries.roles(), queries.modules(), queries.barangays()
    q = request.args.get("q", "")[:100]
    role_id = _role_arg({r.id for r in roles})
    if wants_csv():
        return exports.pending_csv() if tab == "approval" else exports.accounts_csv(q, role_id)
    page, per_page = page_args_lenient(sizes=None)
    if tab == "approval":
        listing = queries.list_pending(page, per_page)
    else:
        listing = queries.list_accounts(q, role_id, page, per_page)
    pending_total = listing.total if tab == "approval" else queries.pending_count()

    return render_template(
        "admin/index.html",
        tab=tab,
        listing=listing,
        q=q,
        role_id=role_id,
        roles=roles,
        modules=modules,
        pending_total=pending_total,
        page_url=lambda number: page_link(page=number),
        page_sizes=PAGE_SIZES,
        props=_island_props(roles, modules, barangays),
        status_label=status_label,
        locked=locks.locked_accounts() if tab == "accounts" else [],
    )


def _form_modules() -> list[str] | None:
    """Ticked module boxes; none ticked on create means the role's defaults."""
    values = request.form.getlist("access")
    return values or None


def _form_int(name: str) -> int | None:
    raw = request.form.get(name, "").strip()
    return int(raw) if raw.isdecimal() and len(raw) < 10 else None


@bp.get("/admin/accounts/new")
@module_required(ADMIN)
def new_account():
    return _account_form(None, {}, None)


def _account_form(account, values: dict, error: str | None, status: int = 200):
    roles, modules, barangays = queries.roles(), queries.modules(), queries.barangays()
    audit = [audit_json(e) for e in queries.recent_audit(account.id)] if account else []
    return render_template(
        "admin/account_form.html",
        account=account,
        values=values,
        error=error,
        roles=roles,
        modules=modules,
        barangays=barangays,
        audit=audit,
        role_defaults=queries.role_defaults(),
    ), status


@bp.post("/admin/accounts")
@module_required(ADMIN)
def create_account():
    form = request.form
    values: dict[str, Any] = {
        key: form.get(key, "") for key in ("first_name", "last_name", "email", "role", "barangay")
    }
    values["access"] = [int(v) for v in form.getlist("access") if v.isdecimal() and len(v) < 10]
    try:
        for key, label in (("first_name", "First name"), ("last_name", "Last name"), ("email", "Email")):
            if not values[key].strip():
                raise Invalid(_("%(label)s is required.", label=label), field=key)
            if len(values[key]) > (EMAIL_MAX if key == "email" else service.NAME_MAX):
                raise Invalid(_("%(label)s is too long.", label=label), field=key)
        role_id = _form_int("role")
        if role_id is None:
            raise Invalid(_("Role is required."), field="role")
        password = form.get("password", "")
        if len(password) > 256:
            raise Invalid(_("Password is too long."), field="password")
        created = service.create_account(
            _actor(),
            first_name=values["first_name"],
            last_name=values["last_name"],
            email=values["email"],
            role_id=role_id,
            module_values=_form_modules(),
            barangay_id=_form_int("barangay"),
            password=password or None,
        )
    except ServiceError as err:
        return _account_form(None, values, err.message, err.status)
    return render_template(
        "admin/created.html",
        account=created.account,
        link_sent=created.set_password_link_sent,
        temporary_until=created.password_expires_at,
    ), 201


@bp.get("/admin/accounts/<int:account_id>/edit")
@module_required(ADMIN)
def edit_account(account_id: int):
    account = service.get_account(account_id)
    return _account_form(account, {}, None)


@bp.post("/admin/accounts/<int:account_id>")
@module_required(ADMIN)
def update_account(account_id: int):
    account = service.get_account(account_id)
    try:
        service.update_account(
            _actor(), account.id, role_id=_form_int("role"), module_values=request.form.getlist("access")
        )
    except ServiceError as err:
        return _account_form(account, {}, err.message, err.status)
    flash(_("Account %(username)s updated.", username=account.username), "success")
    return redirect(url_for("admin.index"))


@bp.post("/admin/accounts/<int:account_id>/active")
@module_required(ADMIN)
def set_active(account_id: int):
    active = request.form.get("active") == "1"
    if not active and needs_confirmation():
        target = service.find_account(account_id)
        if target is not None and target.is_enabled:
            return confirmation_page(
                _("Disable %(name)s?", name=target.full_name),
                _(
                    "%(name)s (%(username)s) will be signed out everywhere and cannot "
                    "sign in until the account is enabled again.",
                    name=target.full_name,
                    username=target.username,
                ),
                _("Disable account"),
                _back(),
            )

    def done(account: Account) -> str:
        if active:
            # Undo of a Disable is this Enable: a used Undo banner goes away.
            drop_undo(url_for("admin.set_active", account_id=account.id))
            return _("Account %(username)s enabled.", username=account.username)
        offer_undo(
            "account-disable",
            account.id,
            _("%(username)s was disabled.", username=account.username),
            url_for("admin.set_active", account_id=account.id),
            {"active": "1", "next": _back()},
        )
        return _("Account %(username)s disabled.", username=account.username)

    return _row_action(lambda: service.set_active(_actor(), account_id, active), done)


@bp.post("/admin/pending/<int:account_id>/approve")
@module_required(ADMIN)
def approve(account_id: int):
    return _row_action(
        lambda: approval.approve_account(
            _actor(), account_id, _form_int("role"), request.form.get("confirm_role", "")[:50]
        ),
        lambda _account: _("Account approved"),
    )


@bp.post("/admin/pending/<int:account_id>/reject")
@module_required(ADMIN)
def reject(account_id: int):
    return _row_action(
        lambda: approval.reject_account(_actor(), account_id, request.form.get("reason", "")),
        lambda _account: _("Account rejected"),
    )


@bp.post("/admin/accounts/<int:account_id>/unlock")
@module_required(ADMIN)
def unlock(account_id: int):
    return _row_action(
        lambda: locks.unlock_account(_actor(), account_id),
        lambda account: _("%(username)s can sign in again.", username=account.username),
    )


# Areas (puroks) -----------------------------------------------------------------------------


def _areas_page(
    errors: dict[str, str] | None = None, values: dict[str, str] | None = None, status: int = 200
):
    """The barangay's areas; `errors` and `values` keyed "new" (the add form) or "area-<id>"."""
    return render_template(
        "admin/areas.html",
        tab="areas",
        rows=areas.area_rows(),
        errors=errors or {},
        values=values or {},
        pending_total=queries.pending_count(),
        show_barangay=tenancy.current_scope() is None and tenancy.is_multi_barangay(),
    ), status


@bp.get("/admin/areas")
@module_required(ADMIN, action="areas.manage")
def areas_index():
    return _areas_page()


@bp.post("/admin/areas")
@module_required(ADMIN, action="areas.manage")
def add_area():
    name = request.form.get("name", "")
    try:
        area = areas.create_area(name)
    except (Invalid, Conflict) as err:  # a taken name too: a field error on the form
        return _areas_page({"new": err.message}, {"new": name[:200]}, 400)
    flash(_("Area %(name)s added.", name=area.name), "success")
    return redirect(url_for("admin.areas_index"))


@bp.post("/admin/areas/<int:area_id>")
@module_required(ADMIN, action="areas.manage")
def rename_area(area_id: int):
    areas.get_area(area_id)  # another barangay's area, or none: 404
    name = request.form.get("name", "")
    key = f"area-{area_id}"
    try:
        area = areas.update_area(area_id, name=name)
    except (Invalid, Conflict) as err:
        return _areas_page({key: err.message}, {key: name[:200]}, 400)
    flash(_("Area renamed to %(name)s.", name=area.name), "success")
    return redirect(url_for("admin.areas_index"))


@bp.post("/admin/areas/<int:area_id>/retired")
@module_required(ADMIN, action="areas.manage")
def retire_area(area_id: int):
    retired = request.form.get("retired", "1") != "0"
    area = areas.update_area(area_id, retired=retired)
    if retired:
        flash(_("%(name)s is retired: new machines and schedules cannot use it.", name=area.name), "success")
    else:
        flash(_("%(name)s is open for new machines and schedules again.", name=area.name), "success")
    return redirect(url_for("admin.areas_index"))
