"""JSON shapes of the telemetry API."""

from __future__ import annotations

from datetime import datetime

from ..models.telemetry import Alert, Notification
from .rollups import Point


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
