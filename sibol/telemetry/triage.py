"""Acting on alerts: how serious each one is, where it stands, how long it has been open, and
acknowledging several at once.

Severity is a function of the metric alone, so an alert never changes severity while it is open:
a sour digester (pH), an explosive or failing gas mix (methane) and gas pressure can hurt people
or kill the digester's bacteria within hours, so they are "critical"; every other metric, and a
machine gone silent, is a "warning" (worth a look today, not an emergency).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from flask_babel import gettext as _
from sqlalchemy import select

from ..data.rows import as_id
from ..errors import Invalid, NotFound
from ..extensions import db
from ..models import utcnow
from ..models.telemetry import Alert

CRITICAL_METRICS = frozenset({"ph", "methane_pct", "pressure_kpa"})
MAX_SELECTED = 200  # as many as the alert list shows


def severity(metric: str) -> str:
    """'critical' for pH, methane and gas pressure; 'warning' for the rest (silent included)."""
    return "critical" if metric in CRITICAL_METRICS else "warning"


def severity_label(metric: str) -> str:
    return _("Critical") if severity(metric) == "critical" else _("Warning")


def status_label(alert: Alert) -> str:
    """Open or closed, acknowledged or not, in one phrase."""
    if alert.closed_at is None:
        return _("Open, acknowledged") if alert.acknowledged_at else _("Open, not acknowledged")
    return _("Closed, acknowledged") if alert.acknowledged_at else _("Closed, not acknowledged")


def span(seconds: int, _: Callable[..., str] = _) -> str:
    """'12 min', '3 h', '2 days': a length of time, rounded down to its largest unit."""
    seconds = max(0, seconds)
    if seconds < 3600:
        return _("%(count)s min", count=max(1, seconds // 60))
    if seconds < 86400 * 2:
        return _("%(count)s h", count=seconds // 3600)
    return _("%(count)s days", count=seconds // 86400)


def how_long(alert: Alert, now: datetime | None = None) -> str:
    """'open 3 h' while open; 'was open 40 min' once closed."""
    if alert.closed_at is None:
        seconds = int(((now or utcnow()) - alert.opened_at).total_seconds())
        return _("open %(time)s", time=span(seconds))
    return _("was open %(time)s", time=span(int((alert.closed_at - alert.opened_at).total_seconds())))


def parse_ids(raw: Iterable[object], field: str = "ids") -> list[int]:
    """Alert ids from a form or a JSON body; Invalid names the field when none or one is bad."""
    values = list(raw)
    if not values:
        raise Invalid(_("Select at least one alert."), field=field)
    if len(values) > MAX_SELECTED:
        raise Invalid(_("Select at most %(n)s alerts at once.", n=MAX_SELECTED), field=field)
    ids = []
    for value in values:
        found = as_id(value)
        if found is None:
            raise Invalid(_("%(field)s must hold alert ids (whole numbers).", field=field), field=field)
        ids.append(found)
    return list(dict.fromkeys(ids))


def acknowledge_many(ids: list[int], *, actor_id: int, actor_name: str) -> tuple[int, int]:
    """Acknowledge these alerts in one transaction: (newly acknowledged, already acknowledged).

    An id that is not an alert of the caller's barangay (the query is scoped to it) makes the
    whole request NotFound, and nothing is written."""
    rows = list(db.session.scalars(select(Alert).where(Alert.id.in_(ids)).with_for_update()))
    if len(rows) != len(ids):
        db.session.rollback()
        raise NotFound(_("Alert not found."))
    now = utcnow()
    done = 0
    for alert in rows:
        if alert.acknowledged_at is None:
            alert.acknowledged_at, alert.acknowledged_by_id = now, actor_id
            alert.acknowledged_by_name = actor_name
            done += 1
    db.session.commit()
    return done, len(rows) - done


def next_open(after: int | None = None) -> Alert | None:
    """The newest open alert nobody has acknowledged yet, other than `after`."""
    query = select(Alert).where(Alert.closed_at.is_(None), Alert.acknowledged_at.is_(None))
    if after is not None:
        query = query.where(Alert.id != after)
    return db.session.scalars(query.order_by(Alert.opened_at.desc(), Alert.id.desc()).limit(1)).first()
