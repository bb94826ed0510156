"""The City Admin's pages: barangays, the city dashboard and the barangay filter.

Plain forms and links: everything works without JavaScript.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from ..data.listing import page_args_lenient
from ..errors import Invalid, ServiceError
from ..identity import tenancy
from ..identity.access import module_required
from ..inputs.fields import field_errors
from ..models import ModuleId, RoleId
from ..web.home import home_of
from . import service

bp = Blueprint("city", __name__)
ADMIN = ModuleId.ADMIN


def _safe_next(target: str | None, default: str) -> str:
    target = target or ""
    if target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return default


@bp.post("/city/barangay-filter")
@module_required(ADMIN, action="city.barangays")
def choose_barangay():
    """The top bar's form and the picker's buttons (POST with CSRF: choosing a barangay decides
    where new records go, so another site must not be able to choose it): keep the chosen
    barangay (empty: all barangays) and go back."""
    raw = (request.form.get("barangay_id") or "").strip()
    if raw:
        if not raw.isdecimal() or len(raw) > 18:
            abort(404)
        barangay = service.get_barangay(int(raw))  # NotFound: 404
        session[tenancy.FILTER_KEY] = barangay.id
        flash(_("Showing %(name)s.", name=barangay.name), "success")
    else:
        session.pop(tenancy.FILTER_KEY, None)
        flash(_("Showing all barangays."), "success")
    return redirect(_safe_next(request.form.get("next"), url_for("city.dashboard")))


@bp.get("/city/barangay-filter/choose")
@module_required(ADMIN, action="city.barangays")
def barangay_picker():
    """The filter's picker when there are too many barangays for a <select>: search and pages;
    each row is a button posting to the filter (above), which comes back to `next`."""
    page, per_page = page_args_lenient(25)
    q = request.args.get("q", "")[:100].strip()
    back = _safe_next(request.args.get("next"), url_for("city.dashboard"))
    return render_template(
        "city/barangay_picker.html",
        listing=service.pick_barangays(q, page, per_page),
        q=q,
        back=back,
        chosen=session.get(tenancy.FILTER_KEY),
    )


def _barangays_page(*, values: dict | None = None, errors: dict | None = None, status: int = 200):
    page, per_page = page_args_lenient(25)
    q = request.args.get("q", "")[:100].strip()
    listing = service.list_barangays(q, page, per_page)
    return render_template(
        "city/barangays.html",
        listing=listing,
        q=q,
        values=values or {},
        errors=errors or {},
    ), status


@bp.get("/city/barangays")
@module_required(ADMIN, action="city.barangays")
def barangays():
    return _barangays_page()


@bp.post("/city/barangays")
@module_required(ADMIN, action="city.barangays")
def create_barangay():
    name = request.form.get("name", "")
    try:
        barangay = service.create_barangay(name)
    except ServiceError as err:
        return _barangays_page(values={"name": name}, errors=field_errors(err), status=err.status)
    flash(_("Barangay %(name)s created.", name=barangay.name), "success")
    return redirect(url_for("city.barangays"))


@bp.get("/city/barangays/<int:barangay_id>")
@module_required(ADMIN, action="city.barangays")
def barangay(barangay_id: int):
    return _barangay_page(barangay_id)


def _barangay_page(
    barangay_id: int,
    *,
    form: str = "",
    values: dict | None = None,
    errors: dict | None = None,
    status: int = 200,
):
    found = service.get_barangay(barangay_id)
    return render_template(
        "city/barangay.html",
        barangay=found,
        candidates=service.appointable_accounts(found.id),
        admins=service.admins_of(found.id),
        form=form,
        values=values or {},
        errors=errors or {},
    ), status


@bp.post("/city/barangays/<int:barangay_id>/rename")
@module_required(ADMIN, action="city.barangays")
def rename_barangay(barangay_id: int):
    name = request.form.get("name", "")
    try:
        found = service.update_barangay(barangay_id, name=name)
    except ServiceError as err:
        if err.status == 404:
            raise
        return _barangay_page(
            barangay_id, form="rename", values={"name": name}, errors=field_errors(err), status=err.status
        )
    flash(_("Barangay renamed to %(name)s.", name=found.name), "success")
    return redirect(url_for("city.barangay", barangay_id=barangay_id))


@bp.post("/city/barangays/<int:barangay_id>/active")
@module_required(ADMIN, action="city.barangays")
def set_barangay_active(barangay_id: int):
    active = request.form.get("active") == "1"
    found = service.update_barangay(barangay_id, is_active=active)
    if active:
        flash(_("%(name)s is active again: its accounts can sign in.", name=found.name), "success")
    else:
        flash(_("%(name)s is deactivated: its accounts cannot sign in.", name=found.name), "success")
    return redirect(_safe_next(request.form.get("next"), url_for("city.barangay", barangay_id=barangay_id)))


@bp.post("/city/barangays/<int:barangay_id>/admins")
@module_required(ADMIN, action="city.barangays")
def appoint_admin(barangay_id: int):
    raw_id = (request.form.get("accountId") or "").strip()
    values = {k: request.form.get(k, "") for k in ("accountId", "firstName", "lastName", "email")}
    try:
        if raw_id:
            if not raw_id.isdecimal() or len(raw_id) > 9:
                raise Invalid(_("Choose an account from the list."), field="accountId")
            account, _created = service.appoint_admin(barangay_id, account_id=int(raw_id))
        else:
            account, _created = service.appoint_admin(barangay_id, new=values)
    except ServiceError as err:
        if err.status == 404 and err.field != "accountId":
            raise
        return _barangay_page(
            barangay_id, form="appoint", values=values, errors=field_errors(err), status=err.status
        )
    flash(_("%(user)s is now an Admin of this barangay.", user=account.username), "success")
    return redirect(url_for("city.barangay", barangay_id=barangay_id))


@bp.get("/city")
@home_of(RoleId.CITY_ADMIN, module=ADMIN)
@module_required(ADMIN, action="city.dashboard")
def dashboard():
    page, per_page = page_args_lenient(25)
    q = request.args.get("q", "")[:100].strip()
    listing, city = service.city_dashboard(page, per_page, q)
    return render_template("city/dashboard.html", listing=listing, city=city, q=q)
