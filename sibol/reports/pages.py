"""/reports/monthly: the printable monthly report (Admin and Barangay Staff)."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request
from flask_login import current_user

from ..errors import ServiceError
from ..i18n import localtime
from ..identity.access import module_required
from ..inputs.fields import field_errors
from ..models import ModuleId
from . import service

bp = Blueprint("reports", __name__)

ACTION = "reports.view"


def barangay_name() -> str:
    """The signed-in account's barangay, else the console's default one (as /api/dashboard)."""
    barangay = getattr(current_user, "barangay", None)
    return barangay.name if barangay else current_app.config["SIBOL_DEFAULT_BARANGAY_NAME"]


def figure(value: float | int | None) -> str:
    """1234 -> '1,234'; 2.50 -> '2.5'; None -> '—'."""
    if value is None:
        return "—"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.3f}".rstrip("0").rstrip(".")


def change(metric: dict) -> str:
    """'+2.5 (+12.5%)', '−3', '0'; '—' when either month has no figure."""
    delta = metric.get("change")
    if delta is None:
        return "—"
    sign = "+" if delta > 0 else ("−" if delta < 0 else "")
    text = sign + figure(abs(delta))
    percent = metric.get("percent")
    if percent is not None and delta:
        text += f" ({sign}{abs(percent):g}%)"
    return text


@bp.get("/reports/monthly")
@module_required(ModuleId.DASHBOARD, action=ACTION)
def monthly():
    raw = request.args.get("month")
    current = service.Month.of(localtime.today())
    try:
        month = service.parse_month(raw)
    except ServiceError as err:
        return render_template(
            "reports/monthly.html",
            barangay=barangay_name(),
            report=None,
            month_value=raw or "",
            current=current,
            errors=field_errors(err),
        ), err.status
    report = service.monthly_report(month)
    following = service.Month.of(month.end)
    return render_template(
        "reports/monthly.html",
        barangay=barangay_name(),
        report=report,
        month_value=month.key,
        current=current,
        previous_key=month.previous.key if month.previous.start.year >= service.FIRST_YEAR else None,
        next_key=following.key if following.start <= current.start else None,
        next_label=following.label,
        errors={},
        figure=figure,
        change=change,
    )
