"""Healthy ranges per machine, and alerts: opened by an out-of-range reading, closed after three
readings back in range; a machine with a key that has gone quiet gets a "silent" alert."""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import Select, select

from ..data.rows import get_by_id
from ..errors import Conflict, Invalid, NotFound
from ..extensions import db
from ..inputs.numbers import finite
from ..models import Machine, utcnow
from ..models.telemetry import METRICS, Alert, DeviceKey, Threshold
from . import notifications
from .metrics import DEFAULT_RANGES, metric_info

SILENT = "silent"
CLOSE_AFTER = 3  # consecutive in-range readings that close an alert
ALERT_STATES = ("open", "closed", "all")


def ranges_for(machine_id: int) -> dict[str, tuple[float, float]]:
    ranges = dict(DEFAULT_RANGES)
    for row in db.session.scalars(select(Threshold).where(Threshold.machine_id == machine_id)):
        ranges[row.metric] = (row.low, row.high)
    return ranges


def parse_ranges(body: dict) -> dict[str, tuple[float, float]]:
    """{"ph": {"min": 6.5, "max": 8}, ...} -> {"ph": (6.5, 8.0)}; Invalid names the field."""
    if not body:
        raise Invalid(_("Send at least one metric's range."), field="body")
    parsed = {}
    for metric, value in body.items():
        field = str(metric)[:40]
        if metric not in METRICS:
            raise Invalid(_("%(field)s is not a known metric.", field=field), field=field)
        if not isinstance(value, dict) or set(value) - {"min", "max"} or not {"min", "max"} <= set(value):
            raise Invalid(_("%(field)s must be an object with min and max.", field=field), field=field)
        bounds = []
        for side in ("min", "max"):
            number = finite(value[side])
            if number is None:
                raise Invalid(
                    _("%(field)s.%(side)s must be a finite number.", field=field, side=side),
                    field=f"{field}.{side}",
                )
            bounds.append(number)
        low, high = bounds
        if low >= high:
            raise Invalid(_("%(field)s.min must be below %(field)s.max.", field=field), field=f"{field}.min")
        info = metric_info(metric)
        if (info.minimum is not None and low < info.minimum) or (
            info.maximum is not None and high > info.maximum
        ):
            raise Invalid(_("%(field)s must stay within what a reading may carry.", field=field), field=field)
        parsed[metric] = (low, high)
    return parsed


def set_ranges(machine_id: int, ranges: dict[str, tuple[float, float]], *, actor_id: int | None) -> None:
    for metric, (low, high) in ranges.items():
        row = db.session.get(Threshold, (machine_id, metric))
        if row is None:
            row = Threshold(machine_id=machine_id, metric=metric)
            db.session.add(row)
        row.low, row.high, row.updated_by_id = low, high, actor_id
    db.session.commit()


def evaluate(
    machine_id: int,
    rows: list[dict],
    *,
    now: datetime,
    ranges: dict[str, tuple[float, float]] | None = None,
    open_alerts: dict[str, Alert] | None = None,
) -> int:
    """Open and close the machine's alerts for new readings, oldest first (the caller commits).

    `ranges` and `open_alerts` (metric -> open Alert) may be given when the caller has read them
    already for many machines at once. Returns how many notifications were created."""
    if ranges is None:
        ranges = ranges_for(machine_id)
    if open_alerts is None:
        open_alerts = {
            a.metric: a
            for a in db.session.scalars(
                select(Alert).where(Alert.machine_id == machine_id, Alert.closed_at.is_(None))
            )
        }
    events: list[tuple[Alert, str]] = []
    silent = open_alerts.pop(SILENT, None)
    if silent is not None:
        silent.closed_at = rows[-1]["ts"] if rows[-1]["ts"] > silent.opened_at else now
        events.append((silent, "closed"))
    for row in rows:
        for metric in METRICS:
            value = row.get(metric)
            if value is None:
                continue
            low, high = ranges[metric]
            alert = open_alerts.get(metric)
            if value < low or value > high:
                if alert is None:
                    alert = Alert(
                        machine_id=machine_id,
                        metric=metric,
                        value=value,
                        low=low,
                        high=high,
                        opened_at=row["ts"],
                    )
                    db.session.add(alert)
                    open_alerts[metric] = alert
                    events.append((alert, "opened"))
                else:
                    alert.in_range_streak = 0
            elif alert is not None:
                alert.in_range_streak = (alert.in_range_streak or 0) + 1
                if alert.in_range_streak >= CLOSE_AFTER:
                    alert.closed_at = row["ts"]
                    del open_alerts[metric]
                    events.append((alert, "closed"))
    if not events:
        return 0
    db.session.flush()  # alert ids for the notifications' links
    machine_name = db.session.scalar(select(Machine.name).where(Machine.id == machine_id)) or f"#{machine_id}"
    return sum(notifications.alert_event(alert, what, machine_name) for alert, what in events)


def check_silence(*, now: datetime | None = None) -> int:
    """Open a "silent" alert for each keyed machine quiet for SIBOL_TELEMETRY_SILENT_MINUTES."""
    now = now or utcnow()
    cutoff = now - timedelta(minutes=current_app.config["SIBOL_TELEMETRY_SILENT_MINUTES"])
    quiet = db.session.execute(
        select(DeviceKey.machine_id, DeviceKey.last_seen_at, DeviceKey.issued_at, Machine.name)
        .join(Machine, Machine.id == DeviceKey.machine_id)
        .where(
            DeviceKey.key_hash.is_not(None),
            DeviceKey.issued_at < cutoff,
            (DeviceKey.last_seen_at.is_(None)) | (DeviceKey.last_seen_at < cutoff),
        )
    ).all()
    if not quiet:
        return 0
    already = set(
        db.session.scalars(
            select(Alert.machine_id).where(
                Alert.metric == SILENT,
                Alert.closed_at.is_(None),
                Alert.machine_id.in_([q.machine_id for q in quiet]),
            )
        )
    )
    opened = 0
    for machine_id, last_seen, issued, name in quiet:
        if machine_id in already:
            continue
        alert = Alert(machine_id=machine_id, metric=SILENT, opened_at=now)
        db.session.add(alert)
        db.session.flush()
        notifications.alert_event(alert, "opened", name, last_seen=last_seen or issued)
        opened += 1
    db.session.commit()
    return opened


def list_alerts(state: str, machine_id: int | None, limit: int = 200) -> list[Alert]:
    return list(db.session.scalars(alerts_query(state, machine_id).limit(limit)))


def alerts_query(state: str, machine_id: int | None) -> Select:
    """Alerts in a state (open, closed, all), of one machine or all, newest first, unlimited."""
    query = select(Alert)
    if state == "open":
        query = query.where(Alert.closed_at.is_(None))
    elif state == "closed":
        query = query.where(Alert.closed_at.is_not(None))
    if machine_id is not None:
        query = query.where(Alert.machine_id == machine_id)
    return query.order_by(Alert.opened_at.desc(), Alert.id.desc())


def get_alert(alert_id: int | str) -> Alert:
    alert = get_by_id(Alert, alert_id)
    if alert is None:
        raise NotFound(_("Alert not found."))
    return alert


def acknowledge(alert_id: int | str, *, actor_id: int, actor_name: str) -> Alert:
    alert = get_alert(alert_id)
    if alert.acknowledged_at is not None:
        raise Conflict(
            _(
                "This alert was already acknowledged by %(acknowledged_by_name)s.",
                acknowledged_by_name=alert.acknowledged_by_name,
            )
        )
    alert.acknowledged_at = utcnow()
    alert.acknowledged_by_id, alert.acknowledged_by_name = actor_id, actor_name
    db.session.commit()
    return alert


def open_alert_counts(machine_ids: list[int]) -> dict[int, int]:
    from sqlalchemy import func

    if not machine_ids:
        return {}
    rows = db.session.execute(
        select(Alert.machine_id, func.count())
        .where(Alert.closed_at.is_(None), Alert.machine_id.in_(machine_ids))
        .group_by(Alert.machine_id)
    )
    return {machine_id: count for machine_id, count in rows}


def machine_names(ids: set[int]) -> dict[int, str]:
    """Machine id -> name, for alerts listed by machine id."""
    return dict(db.session.execute(select(Machine.id, Machine.name).where(Machine.id.in_(ids or {0}))).all())
