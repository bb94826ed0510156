"""The dashboard page: greeting, waste doughnut, process panel, collection schedule, energy chart."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from markupsafe import Markup

from ..errors import ServiceError
from ..i18n.labels import shown
from ..i18n.localtime import month_name
from ..identity.access import module_required
from ..identity.tenancy import chosen_barangay_name
from ..inputs.fields import field_errors
from ..inputs.rules import kg_text
from ..models import Account, ModuleId, RoleId
from ..web import charts as svg_charts
from ..web.home import home_of
from . import service

bp = Blueprint("dashboard", __name__)


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
    if account.is_admin and account.first_name == "System" and account.role_id != RoleId.CITY_ADMIN:
        return None, name  # the installation's first administrator (now in the first barangay)
    if account.barangay:
        return account.barangay.name, name
    if account.role_id == RoleId.CITY_ADMIN:  # the barangay chosen in the filter, if any
        return chosen_barangay_name(), name
    if account.is_admin and account.first_name == "System":
        return None, name
    return current_app.config["SIBOL_DEFAULT_BARANGAY_NAME"], name


def chart_svgs(summary: dict) -> dict:
    """The doughnut of each period and the energy chart, drawn as SVG on the server:
    visible with the first response and without JavaScript; Chart.js only adds interaction."""
    waste: dict[str, Markup] = {}
    for p, figures in summary["waste"].items():
        waste[p] = svg_charts.doughnut(
            figures["streets"],
            figures["kg"],
            title=_("%(period)s waste per street", period=shown(service.PERIOD_NAMES.get(p, p))),
            desc=_("Total %(total)s kg; the figures are in the table below.", total=figures["total_text"]),
            unit="kg",
            empty=_("No waste collections recorded yet."),
        )
    energy = summary["energy"]
    line = None
    if energy["series"]:
        unit = _("kWh")
        series = [(str(s["year"]), s["kilowatts"]) for s in energy["series"]]
        # Lines need two neighbouring months; with fewer figures a line chart is lone dots.
        lines = svg_charts.joins_points(series)
        line = (svg_charts.line_chart if lines else svg_charts.grouped_bar_chart)(
            [month_name(m) for m in energy["months"]],
            series,
            title=_("Energy per month"),
            desc=_("One line per year; the figures are in the table below.")
            if lines
            else _("One bar per year and month; the figures are in the table below."),
            y_label=_("Unit: %(unit)s", unit=unit),
            unit=unit,
            short_labels=[month_name(m, "abbreviated") for m in energy["months"]],
        )
    return {"waste": waste, "energy": line}


@bp.get("/dashboard")
@home_of(module=ModuleId.DASHBOARD)
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
        charts=chart_svgs(summary),
        chart_props={
            "period": period,
            "waste": summary["waste"],
            # The chart's month names in the reader's language (the JSON API keeps English).
            "energy": {**summary["energy"], "months": [month_name(m) for m in summary["energy"]["months"]]},
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
    flash(_("Waste collection recorded."), "success")
    return redirect(url_for("dashboard.index", period=request.form.get("period") or None))


@bp.post("/dashboard/energy-readings")
@module_required(ModuleId.DASHBOARD, action="dashboard.record")
def record_energy():
    data = {k: request.form.get(k) for k in ("month", "kilowatts")}
    try:
        service.record_energy(data)
    except ServiceError as err:
        return _render(form="energy", values=data, errors=field_errors(err), status=err.status)
    flash(_("Energy reading recorded."), "success")
    return redirect(url_for("dashboard.index"))
