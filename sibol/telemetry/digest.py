"""The notification centre's list: alert notifications folded into one line per machine, metric
and local day ("pH on Machine 1: opened 3 times, closed 3 times today"), the rest one by one, and
the filters for unread notes and for alerts nobody has acknowledged yet.

A flapping sensor opens and closes an alert many times a day; one line per episode would bury
every other notification, so the centre counts them instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select, update

from ..data.rows import as_id, get_by_id
from ..errors import NotFound
from ..extensions import db
from ..i18n.labels import shown
from ..i18n.localtime import local_date, to_local, today
from ..models import Machine, utcnow
from ..models.telemetry import Alert, Notification
from . import notifications
from .alerts import SILENT
from .metrics import metric_info

FILTERS = ("all", "unread", "unacknowledged")
ALERT_KINDS = ("alert_opened", "alert_closed")
LINK_PREFIX = "/sibol-machines/alerts/"
SCAN = 300  # newest notes read to build the list


@dataclass
class Entry:
    """One line of the list: a single notification, or a day's alert notes of one machine and
    metric (newest first)."""

    notes: list[Notification]
    day: date
    title: str = ""
    alert: Alert | None = None
    opened: int = 0
    closed: int = 0
    grouped: bool = False
    extra: list[int] = field(default_factory=list)  # the other notes' ids, marked read with it

    @property
    def newest(self) -> Notification:
        return self.notes[0]

    @property
    def unread(self) -> int:
        return sum(1 for n in self.notes if n.read_at is None)


def alert_id_of(note: Notification) -> int | None:
    """The alert a note of an alert event links to (its link is /sibol-machines/alerts/<id>)."""
    if note.kind not in ALERT_KINDS or not note.link.startswith(LINK_PREFIX):
        return None
    tail = note.link[len(LINK_PREFIX) :]
    return int(tail) if tail.isdecimal() and len(tail) <= 10 else None


def day_phrase(day: date) -> str:
    current = today()
    if day == current:
        return _("today")
    if day == current - timedelta(days=1):
        return _("yesterday")
    return _("on %(date)s", date=local_date(day))


def metric_name(metric: str) -> str:
    return _("Silent") if metric == SILENT else shown(metric_info(metric).label)


def entries(account_id: int, show: str = "all", limit: int = 50) -> list[Entry]:
    """The account's console notifications as list lines, newest first, filtered by `show`."""
    notes = notifications.list_for(account_id, unread_only=show == "unread", limit=SCAN)
    alert_ids = {i for i in map(alert_id_of, notes) if i is not None}
    found = {a.id: a for a in db.session.scalars(select(Alert).where(Alert.id.in_(alert_ids or {0})))}
    names = dict(
        db.session.execute(
            select(Machine.id, Machine.name).where(
                Machine.id.in_({a.machine_id for a in found.values()} or {0})
            )
        ).all()
    )
    lines: list[Entry] = []
    groups: dict[tuple, Entry] = {}
    for note in notes:
        alert = found.get(alert_id_of(note) or 0)
        if show == "unacknowledged" and (alert is None or alert.acknowledged_at is not None):
            continue
        day = to_local(note.created_at).date()
        if alert is None:
            lines.append(Entry(notes=[note], day=day, title=note.title))
            continue
        key = (day, alert.machine_id, alert.metric)
        entry = groups.get(key)
        if entry is None:
            entry = groups[key] = Entry(notes=[], day=day, alert=alert)
            lines.append(entry)
        entry.notes.append(note)
        if note.kind == "alert_opened":
            entry.opened += 1
        else:
            entry.closed += 1
    for entry in groups.values():
        entry.grouped = len(entry.notes) > 1
        entry.extra = [n.id for n in entry.notes[1:] if n.read_at is None]
        first = entry.alert
        entry.title = summary(entry, first, names) if entry.grouped and first else entry.newest.title
    return lines[:limit]


def summary(entry: Entry, alert: Alert, names: dict[int, str]) -> str:
    """A group's line: 'pH on Machine 1: opened 3 times, closed 3 times today'."""
    counts = []
    if entry.opened:
        counts.append(ngettext("opened %(num)s time", "opened %(num)s times", entry.opened))
    if entry.closed:
        counts.append(ngettext("closed %(num)s time", "closed %(num)s times", entry.closed))
    return _(
        "%(metric)s on %(machine)s: %(counts)s %(day)s",
        metric=metric_name(alert.metric),
        machine=names.get(alert.machine_id, f"#{alert.machine_id}"),
        counts=", ".join(counts),
        day=day_phrase(entry.day),
    )


def mark_entry_read(account_id: int, notification_id: int | str, also: list[str]) -> Notification:
    """Mark a line read: its newest note and the other notes of its group (`also`, ids of the
    account's own notes; any other id is ignored), in one transaction."""
    row = get_by_id(Notification, notification_id)
    if row is None or row.account_id != account_id or not row.in_console:
        raise NotFound(_("Notification not found."))
    ids = [row.id, *(i for i in map(as_id, also[:SCAN]) if i is not None)]
    db.session.execute(
        update(Notification)
        .where(
            Notification.account_id == account_id, Notification.id.in_(ids), Notification.read_at.is_(None)
        )
        .values(read_at=utcnow())
    )
    db.session.commit()
    return row
