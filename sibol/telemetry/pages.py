"""Pages: a machine's device (key, healthy ranges), the alerts view, the notification centre.

The Process Panels and Analytics tabs render inside /sibol-machines (panels.machine_tab). Every
page works without JavaScript; forms post back and redirect.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user

from ..commands import service as commands
from ..data.export import wants_csv
from ..devices import service as devices
from ..errors import ServiceError
from ..identity.access import module_required, signed_in
from ..models import ModuleId
from ..models.telemetry import METRICS
from ..mqtt import refusals as refusal_log
from ..mqtt.settings import mqtt_enabled
from ..web.lookup import found_or_404, machine_or_404
from ..web.offline import offline_page
from . import alerts, connect, digest, notifications, panels, regions, triage
from .api import require_editor
from .exports import alerts_csv
from .metrics import metric_info

bp = Blueprint("telemetry", __name__)


def unread_notifications() -> int:
    if not current_user.is_authenticated:
        return 0
    return regions.unread(current_user.id)


def metric_label(key: str) -> str:
    return "Silent" if key == alerts.SILENT else metric_info(key).label


def metric_unit(key: str) -> str:
    return "" if key == alerts.SILENT else metric_info(key).unit


# The names every page's templates may call (the feature's declaration in sibol/__init__.py).
TEMPLATE_GLOBALS = {
    "unread_notifications": unread_notifications,
    "last_reading_times": panels.last_reading_times,
    "open_alert_counts": alerts.open_alert_counts,
    "metric_label": metric_label,
    "metric_unit": metric_unit,
}


@bp.get("/sibol-machines/machines/<machine_id>/device")
@module_required(ModuleId.MACHINES)
@offline_page
def device(machine_id: str, new_key: str | None = None):
    machine = machine_or_404(machine_id)
    state = devices.device_states([machine.id]).get(machine.id)
    refused_count, refusals = refusal_log.recent(machine.id)
    dead_letter_count, _dead = refusal_log.dead_letters(machine.id)
    return render_template(
        "machines/device.html",
        machine=machine,
        device=state,
        readings=regions.latest_readings(machine.id),
        refused_count=refused_count,
        refusals=refusals,
        dead_letter_count=dead_letter_count,
        shown_payload=refusal_log.shown,
        mqtt_on=mqtt_enabled(),
        new_key=new_key,
        settings=connect.device_settings(machine.id) if new_key else None,
        can_edit=current_user.role_id in panels.EDITOR_ROLES,
        ranges=alerts.ranges_for(machine.id),
        metrics=[metric_info(m) for m in METRICS],
        commands=commands.history(machine.id),
    )


@bp.post("/sibol-machines/machines/<machine_id>/device-key")
@module_required(ModuleId.MACHINES)
def issue_key(machine_id: str):
    machine = machine_or_404(machine_id)
    try:
        require_editor()
        raw = devices.issue_key(machine.id, actor_id=current_user.id)
    except ServiceError as err:
        flash(err.message, "error")
        return redirect(url_for("telemetry.device", machine_id=machine.id))
    # Rendered here, never redirected or flashed: the key is shown once and stored nowhere.
    return device(str(machine.id), new_key=raw)


@bp.post("/sibol-machines/machines/<machine_id>/device-key/revoke")
@module_required(ModuleId.MACHINES)
def revoke_key(machine_id: str):
    machine = machine_or_404(machine_id)
    try:
        require_editor()
        devices.revoke_key(machine.id)
        flash(_("Device key revoked: the machine's readings are refused from now on."), "success")
    except ServiceError as err:
        flash(err.message, "error")
    return redirect(url_for("telemetry.device", machine_id=machine.id))


@bp.post("/sibol-machines/machines/<machine_id>/thresholds")
@module_required(ModuleId.MACHINES)
def update_thresholds(machine_id: str):
    machine = machine_or_404(machine_id)
    body: dict = {}
    for metric in METRICS:
        low, high = (
            request.form.get(f"{metric}_min", "").strip(),
            request.form.get(f"{metric}_max", "").strip(),
        )
        if low or high:
            body[metric] = {"min": _number(low), "max": _number(high)}
    try:
        require_editor()
        alerts.set_ranges(machine.id, alerts.parse_ranges(body), actor_id=current_user.id)
        flash(_("Healthy ranges saved."), "success")
    except ServiceError as err:
        flash(_("Healthy ranges not saved: %(message)s", message=err.message), "error")
    return redirect(url_for("telemetry.device", machine_id=machine.id))


def _number(raw: str) -> float | str:
    try:
        return float(raw)
    except ValueError:
        return raw


@bp.get("/sibol-machines/alerts")
@module_required(ModuleId.MACHINES)
def alert_list():
    state = request.args.get("state", "open")
    if state not in alerts.ALERT_STATES:
        state = "open"
    machine = None
    if request.args.get("machine"):
        machine = machine_or_404(request.args["machine"])
    if wants_csv():
        return alerts_csv(state, machine.id if machine else None)
    rows = alerts.list_alerts(state, machine.id if machine else None)
    names = alerts.machine_names({a.machine_id for a in rows})
    return render_template(
        "machines/alerts.html",
        alerts=rows,
        state=state,
        machine=machine,
        names=names,
        triage=triage,
        next_open=triage.next_open(),
    )


@bp.post("/sibol-machines/alerts/acknowledge")
@module_required(ModuleId.MACHINES)
def acknowledge_selected():
    """The alert list's one form: a row's Acknowledge button sends `one`, "Acknowledge selected"
    sends the ticked `ids`. Back to the list it came from, with what was done."""
    back = url_for(
        "telemetry.alert_list",
        state=request.form.get("state") or None,
        machine=request.form.get("machine") or None,
    )
    one = request.form.get("one")
    try:
        ids = triage.parse_ids([one] if one else request.form.getlist("ids"))
        done, already = triage.acknowledge_many(
            ids, actor_id=current_user.id, actor_name=current_user.full_name
        )
    except ServiceError as err:
        if err.status == 404:
            abort(404)
        flash(err.message, "error")
        return redirect(back)
    if done:
        flash(ngettext("%(num)s alert acknowledged.", "%(num)s alerts acknowledged.", done), "success")
    if already:
        flash(
            ngettext(
                "%(num)s alert was already acknowledged.",
                "%(num)s alerts were already acknowledged.",
                already,
            ),
            "info",
        )
    return redirect(back)


@bp.get("/sibol-machines/alerts/<alert_id>")
@module_required(ModuleId.MACHINES)
def alert_detail(alert_id: str):
    alert = found_or_404(alerts.get_alert, alert_id)
    return render_template(
        "machines/alert.html",
        alert=alert,
        names=alerts.machine_names({alert.machine_id}),
        triage=triage,
        next_open=triage.next_open(after=alert.id),
    )


@bp.post("/sibol-machines/alerts/<alert_id>/acknowledge")
@module_required(ModuleId.MACHINES)
def acknowledge(alert_id: str):
    try:
        alerts.acknowledge(alert_id, actor_id=current_user.id, actor_name=current_user.full_name)
        flash(_("Alert acknowledged."), "success")
    except ServiceError as err:
        if err.status == 404:
            abort(404)
        flash(err.message, "error")
    return redirect(url_for("telemetry.alert_detail", alert_id=alert_id))


@bp.get("/notifications")
@signed_in
def notification_centre():
    show = request.args.get("show", "all")
    if show not in digest.FILTERS:
        show = "all"
    return render_template(
        "notifications/index.html",
        entries=digest.entries(current_user.id, show),
        show=show,
        day_phrase=digest.day_phrase,
        unread=notifications.unread_count(current_user.id),
        preferences=notifications.preferences(current_user.id),
        kinds=notifications.KINDS,
    )


@bp.post("/notifications/<notification_id>/read")
@signed_in
def read(notification_id: str):
    row = found_or_404(digest.mark_entry_read, current_user.id, notification_id, request.form.getlist("also"))
    target = row.link if row.link.startswith("/") and not row.link.startswith("//") else None
    return redirect(target or url_for("telemetry.notification_centre"))


@bp.post("/notifications/read-all")
@signed_in
def read_all():
    notifications.mark_all_read(current_user.id)
    flash(_("Every notification is marked read."), "success")
    return redirect(url_for("telemetry.notification_centre"))


@bp.post("/notifications/preferences")
@signed_in
def save_preferences():
    choices = {kind: request.form.get(kind, "") for kind in notifications.KINDS if kind in request.form}
    try:
        notifications.set_preferences(current_user.id, notifications.parse_preferences(choices))
        flash(_("Notification settings saved."), "success")
    except ServiceError as err:
        flash(_("Settings not saved: %(message)s", message=err.message), "error")
    return redirect(url_for("telemetry.notification_centre"))
