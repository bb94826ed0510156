"""The dashboard page: greeting, waste doughnut, process panel, collection schedule, energy chart."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user

from ..access import module_required
from ..errors import ServiceError
from ..models import Account, ModuleId
from ..rules import kg_text
from ..validation import field_errors
from . import service

bp = Blueprint("dashboard", __name__)


@bp.app_template_filter("kg_number")
def kg_number(kg: float) -> str:
    """1.5 -> '1.5', 5.0 -> '5' (the spec writes whole kilograms without decimals)."""
    return kg_text(round(kg * 1000))


def greeting(account: Account) -> tuple[str | None, str]:
    """(barangay, name) the greeting shows: the account's own barangay, else the console's
    default one, except for the system administrator, who belongs to none; the person's
    first name, or the full name when the first name alone is not a name ("System")."""
    name = account.first_name.strip() if account.first_name else ""
    if not name or name == "System":
        name = account.full_name
    if account.barangay:
        return account.barangay.name, name
    if account.is_admin and account.first_name == "System":
        return None, name
    return current_app.config["SIBOL_DEFAULT_BARANGAY_NAME"], name


@bp.get("/dashboard")
@module_required(ModuleId.DASHBOARD)
def index():
    return _render()


def _render(
    *, form: str | None = None, values: dict | None = None, errors: dict | None = None, status: int = 200
):
    barangay, greeting_name = greeting(current_user)
    period = request.args.get("period", "weekly")
    if period not in service.PERIODS:
        period = "weekly"
    summary = service.summary()
    return render_template(
        "dashboard/index.html",
        barangay=barangay,
        greeting_name=greeting_name,
        period=period,
        periods=service.PERIODS,
        period_names=service.PERIOD_NAMES,
        summary=summary,
        form=form,
        values=values or {},
        errors=errors or {},
        chart_props={
            "period": period,
            "waste": summary["waste"],
            "energy": summary["energy"],
        },
    ), status


@bp.post("/dashboard/waste-collections")
@module_required(ModuleId.DASHBOARD, action="dashboard.record")
def record_waste():
    data = {k: request.form.get(k) for k in ("street", "collectedOn", "weightKg")}
    try:
        service.record_waste(data)
    except ServiceError as err:
        return _render(form="waste", values=data, errors=field_errors(err), status=err.status)
    flash("Waste collection recorded.", "success")
    return redirect(url_for("dashboard.index", period=request.form.get("period") or None))


@bp.post("/dashboard/energy-readings")
@module_required(ModuleId.DASHBOARD, action="dashboard.record")
def record_energy():
    data = {k: request.form.get(k) for k in ("month", "kilowatts")}
    try:
        service.record_energy(data)
    except ServiceError as err:
        return _render(form="energy", values=data, errors=field_errors(err), status=err.status)
    flash("Energy reading recorded.", "success")
    return redirect(url_for("dashboard.index"))
