"""JSON shapes of the telemetry API, and how long ago a machine last reported."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from flask_babel import gettext as _

from ..models.telemetry import Alert, Notification
from .rollups import Point
from .triage import severity


def ago(ts: datetime | None, now: datetime, _: Callable[..., str] = _) -> str:
    """'never', 'just now', '5 min ago', '3 h ago', '2 days ago'. A list passes
    i18n.bound_gettext() as `_`, looked up once for all its rows."""
    if ts is None:
        return _("never")
    seconds = max(0, int((now - ts).total_seconds()))
    if seconds < 60:
        return _("just now")
    if seconds < 3600:
        return _("%(count)s min ago", count=seconds // 60)
    if seconds < 86400 * 2:
        return _("%(count)s h ago", count=seconds // 3600)
    return _("%(count)s days ago", count=seconds // 86400)


def last_reading_json(last: datetime | None, now: datetime, _: Callable[..., str] = _) -> dict:
    """When a machine last reported, as the machines API adds it to each machine."""
    if last is None:
        return {"lastReadingAt": None, "lastReading": _("never")}
    return {"lastReadingAt": last.isoformat() + "Z", "lastReading": ago(last, now, _)}


def ts_json(ts: datetime | None) -> str | None:
    """Naive UTC -> ISO 8601 with Z."""
    return None if ts is None else ts.isoformat(timespec="seconds") + "Z"


def point_json(p: Point) -> dict:
    return {"ts": ts_json(p.ts), "min": p.min, "max": p.max, "avg": round(p.avg, 4), "count": p.count}


def alert_json(a: Alert) -> dict:
    return {
        "id": a.id,
        "machineId": a.machine_id,
        "metric": a.metric,
        "severity": severity(a.metric),
        "value": a.value,
        "range": None if a.low is None else {"min": a.low, "max": a.high},
        "state": "open" if a.closed_at is None else "closed",
        "openedAt": ts_json(a.opened_at),
        "closedAt": ts_json(a.closed_at),
        "acknowledgedAt": ts_json(a.acknowledged_at),
        "acknowledgedBy": a.acknowledged_by_name,
    }


def notification_json(n: Notification) -> dict:
    return {
        "id": n.id,
        "kind": n.kind,
        "title": n.title,
        "body": n.body,
        "link": n.link,
        "createdAt": ts_json(n.created_at),
        "read": n.read_at is not None,
    }
