"""/api: device keys, ingestion, latest values and series, thresholds, alerts, notifications."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Blueprint, current_app, request
from flask_babel import gettext as _
from flask_login import current_user

from ..api import json_body
from ..data.export import wants_csv
from ..data.rows import get_machine
from ..devices import service as devices
from ..devices.service import DeviceRequest, device_rate_limit
from ..errors import Forbidden, Invalid
from ..identity.access import module_required, public, signed_in
from ..models import ModuleId, utcnow
from ..mqtt import refusals as refusal_log
from . import alerts, hooks, ingest, notifications, rollups, triage  # noqa: F401 - hooks register on import
from .exports import alerts_csv, readings_csv
from .panels import EDITOR_ROLES
from .serializers import alert_json, notification_json, point_json, ts_json
from .tasks import queue_notification_mail

bp = Blueprint("telemetry", __name__)


def require_editor() -> None:
    """Keys and healthy ranges are changed by Admin and Barangay Staff only."""
    if current_user.role_id not in EDITOR_ROLES:
        raise Forbidden(_("Only Admin and Barangay Staff accounts can change this."))


@bp.post("/machines/<machine_id>/device-key")
@module_required(ModuleId.MACHINES)
def issue_device_key(machine_id: str):
    """Issue the machine's device key (shown once); any older key stops working"""
    get_machine(machine_id)
    require_editor()
    raw = devices.issue_key(machine_id, actor_id=current_user.id)
    return {
        "success": True,
        "deviceKey": raw,
        "message": _("Copy this key now: it will not be shown again."),
    }, 201


@bp.delete("/machines/<machine_id>/device-key")
@module_required(ModuleId.MACHINES)
def revoke_device_key(machine_id: str):
    """Revoke the machine's device key"""
    get_machine(machine_id)
    require_editor()
    devices.revoke_key(machine_id)
    response = current_app.response_class(status=204)
    del response.headers["Content-Type"]  # no body, so no media type
    return response


@devices.device_route("POST", "/api/telemetry")
def store_readings(device: devices.Device, req: DeviceRequest) -> tuple[dict, int]:
    """One reading or {readings: [...]} of the device's machine; 202 once they are committed."""
    result = ingest.ingest_for_key(device.machine_id, device.key_hash, req.json())
    if result.notified:
        queue_notification_mail()  # the e-mail goes out from the task queue, not this request
    return {"accepted": result.accepted, "duplicates": result.duplicates}, 202


@bp.post("/telemetry")
@public  # authenticated by the device key itself, below
@device_rate_limit
def post_telemetry():
    """Post one reading or {readings: [...]} (Authorization: Device <key>)"""
    # Served by sibol/devices/http.py in front of the app; this view documents the route (OpenAPI) and
    # answers the same way should a request reach the app itself.
    device = devices.authenticate(request.headers.get("Authorization"))
    body, status = store_readings(device, DeviceRequest())
    return body, status


post_telemetry.sibol_csrf_exempt = True  # type: ignore[attr-defined]


@bp.get("/machines/<machine_id>/telemetry/latest")
@module_required(ModuleId.MACHINES)
def latest(machine_id: str):
    """The newest value and its time per metric"""
    machine = get_machine(machine_id)
    values = rollups.latest(machine.id)
    return {
        "machineId": machine.id,
        "data": {m: {"value": v["value"], "ts": ts_json(v["ts"])} for m, v in values.items()},
    }


@bp.get("/machines/<machine_id>/telemetry/refusals")
@module_required(ModuleId.MACHINES)
def refusals(machine_id: str):
    """The machine's refused device messages (count, newest 20) and its dead letters"""
    machine = get_machine(machine_id)  # another barangay's machine is 404
    count, rows = refusal_log.recent(machine.id)
    dead_count, dead = refusal_log.dead_letters(machine.id)
    return {
        "machineId": machine.id,
        "refusedCount": count,
        "data": [
            {"at": ts_json(r.at), "reason": r.reason, "payload": refusal_log.shown(r.payload)} for r in rows
        ],
        "deadLetterCount": dead_count,
        "deadLetters": [
            {
                "at": ts_json(d.at),
                "topic": d.suffix,
                "error": d.error,
                "payload": refusal_log.shown(d.payload[:512]),
            }
            for d in dead
        ],
    }


def _time_arg(name: str, default: datetime) -> datetime:
    raw = request.args.get(name, "").strip()
    if not raw:
        return default
    try:
        if raw.isdecimal() and len(raw) <= 15:
            return datetime(1970, 1, 1) + timedelta(milliseconds=int(raw))
        parsed = datetime.fromisoformat(raw.replace("Z", "+00:00")[:40])
    except (ValueError, OverflowError):
        raise Invalid(_("%(name)s must be ISO 8601 or epoch milliseconds.", name=name), field=name) from None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(UTC).replace(tzinfo=None)
    return parsed


@bp.get("/machines/<machine_id>/telemetry")
@module_required(ModuleId.MACHINES)
def series(machine_id: str):
    """One metric's points: raw readings, or 5m/1h/1d buckets (min, max, avg, count)"""
    machine = get_machine(machine_id)
    end = _time_arg("to", utcnow())
    start = _time_arg("from", end - timedelta(hours=24))
    metric, bucket = rollups.check_series_args(
        request.args.get("metric"), request.args.get("bucket"), start, end
    )
    points = rollups.series(machine.id, metric, bucket, start, end)
    if wants_csv():  # bounded by rollups.MAX_POINTS, so a list is fine here
        return readings_csv(machine.id, metric, bucket, points)
    return {"metric": metric, "bucket": bucket, "data": [point_json(p) for p in points]}


@bp.get("/machines/<machine_id>/thresholds")
@module_required(ModuleId.MACHINES)
def thresholds(machine_id: str):
    """The machine's healthy range per metric (its own, or the defaults)"""
    machine = get_machine(machine_id)
    ranges = alerts.ranges_for(machine.id)
    return {"data": {m: {"min": lo, "max": hi} for m, (lo, hi) in ranges.items()}}


@bp.put("/machines/<machine_id>/thresholds")
@module_required(ModuleId.MACHINES)
def update_thresholds(machine_id: str):
    """Change some healthy ranges: {"ph": {"min": 6.5, "max": 8}} (Admin, Barangay Staff)"""
    machine = get_machine(machine_id)
    require_editor()
    alerts.set_ranges(machine.id, alerts.parse_ranges(json_body()), actor_id=current_user.id)
    return thresholds(machine_id)


@bp.get("/alerts")
@module_required(ModuleId.MACHINES)
def list_alerts():
    """Alerts, newest first: state=open|closed|all, machine=<id>"""
    state = request.args.get("state", "open")
    if state not in alerts.ALERT_STATES:
        raise Invalid(_("state must be open, closed or all."), field="state")
    machine_id = None
    if request.args.get("machine"):
        machine_id = get_machine(request.args["machine"]).id
    if wants_csv():
        return alerts_csv(state, machine_id)
    return {"data": [alert_json(a) for a in alerts.list_alerts(state, machine_id)]}


@bp.post("/alerts/<alert_id>/acknowledge")
@module_required(ModuleId.MACHINES)
def acknowledge(alert_id: str):
    """Record that you have seen the alert"""
    alert = alerts.acknowledge(alert_id, actor_id=current_user.id, actor_name=current_user.full_name)
    return {"success": True, "data": alert_json(alert)}


@bp.post("/alerts/acknowledge")
@module_required(ModuleId.MACHINES)
def acknowledge_selected():
    """Acknowledge several alerts at once: {"ids": [1, 2]}; any id not found -> 404, nothing written"""
    body = json_body()
    raw = body.get("ids")
    if not isinstance(raw, list):
        raise Invalid(_("ids must be a list of alert ids."), field="ids")
    done, already = triage.acknowledge_many(
        triage.parse_ids(raw), actor_id=current_user.id, actor_name=current_user.full_name
    )
    return {"success": True, "acknowledged": done, "alreadyAcknowledged": already}


@bp.get("/notifications")
@signed_in
def list_notifications():
    """Your notifications, newest first, and the unread count"""
    unread_only = request.args.get("unread") in ("1", "true")
    rows = notifications.list_for(current_user.id, unread_only=unread_only)
    return {
        "unread": notifications.unread_count(current_user.id),
        "data": [notification_json(n) for n in rows],
    }


@bp.post("/notifications/<notification_id>/read")
@signed_in
def read_notification(notification_id: str):
    """Mark one notification read"""
    row = notifications.mark_read(current_user.id, notification_id)
    return {"success": True, "data": notification_json(row)}


@bp.post("/notifications/read-all")
@signed_in
def read_all_notifications():
    """Mark every notification read"""
    count = notifications.mark_all_read(current_user.id)
    return {"success": True, "marked": count}


@bp.get("/notifications/preferences")
@signed_in
def notification_preferences():
    """How you are told of each kind of event: console, email or both"""
    return {"data": notifications.preferences(current_user.id)}


@bp.put("/notifications/preferences")
@signed_in
def update_notification_preferences():
    """Choose console, email or both per kind of event"""
    choices = notifications.parse_preferences(json_body())
    return {"data": notifications.set_preferences(current_user.id, choices)}
