"""What the telemetry live regions show, and their cheap versions (sibol.web.live).

A version is a few values read by primary key or by an index, that change whenever the region's
HTML would: polls compare it many times a minute, the HTML is drawn only when it moved.
"""

from __future__ import annotations

from flask import g
from sqlalchemy import func, select

from ..extensions import db
from ..models import utcnow
from ..models.telemetry import METRICS, Alert, DeviceKey, Reading, Threshold
from . import alerts, notifications, rollups
from .metrics import metric_info
from .panels import number
from .serializers import ago


def readings_version(machine_id: int) -> tuple:
    """Changes with every accepted reading (even a late one), a new or revoked key, and a range."""
    key = db.session.execute(
        select(DeviceKey.last_seen_at, DeviceKey.last_reading_at, DeviceKey.key_hash.is_not(None)).where(
            DeviceKey.machine_id == machine_id
        )
    ).first()
    newest = db.session.execute(
        select(Reading.ts, Reading.id)
        .where(Reading.machine_id == machine_id)
        .order_by(Reading.ts.desc())
        .limit(1)
    ).first()
    ranges = db.session.execute(
        select(func.count(), func.max(Threshold.updated_at)).where(Threshold.machine_id == machine_id)
    ).first()
    return (tuple(key) if key else None, tuple(newest) if newest else None, tuple(ranges or ()))


def panel_version(machine_id: int, name: str) -> tuple:
    """The Process Panels tab: the readings' version, the machine's name and its open alerts."""
    opened = db.session.execute(
        select(func.count(), func.max(Alert.id)).where(
            Alert.machine_id == machine_id, Alert.closed_at.is_(None)
        )
    ).first()
    return (readings_version(machine_id), name, tuple(opened or ()))


def unread(account_id: int) -> int:
    """The bell's count, read once per request (the page and its live region both ask)."""
    cached = g.get("sibol_unread")
    if cached is None or cached[0] != account_id:
        cached = g.sibol_unread = (account_id, notifications.unread_count(account_id))
    return cached[1]


def latest_readings(machine_id: int) -> dict:
    """Each metric's newest value beside its healthy range, for the device page."""
    now = utcnow()
    latest = rollups.latest(machine_id)
    ranges = alerts.ranges_for(machine_id)
    rows = []
    for metric in METRICS:
        info = metric_info(metric)
        low, high = ranges[metric]
        current = latest.get(metric)
        value = current["value"] if current else None
        rows.append(
            {
                "key": metric,
                "label": info.label,
                "unit": info.unit,
                "value": number(value),
                "range": (number(low), number(high)),
                "state": "none" if value is None else ("ok" if low <= value <= high else "out"),
                "ts": current["ts"] if current else None,
            }
        )
    newest = max((v["ts"] for v in latest.values()), default=None)
    return {"rows": rows, "last_ts": newest, "last_ago": ago(newest, now)}
