"""The notification centre: who is told what, in the console and/or by e-mail.

Notifications are written in the transaction of the event they report. E-mail is never sent
inside that request: rows wait with email_state "pending" until deliver_pending() runs (after
the response is sent, and on every `flask telemetry-tick`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import cast

from flask import current_app
from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import Connection, CursorResult, func, insert, select, update

from ..data.rows import get_by_id
from ..emails import recipient_language, send_email
from ..errors import Invalid, NotFound
from ..extensions import db
from ..i18n.labels import shown
from ..models import Account, AccountStatus, Machine, ModuleId, account_modules, utcnow
from ..models.telemetry import Alert, Notification, NotificationPreference
from .metrics import metric_info

# kind -> label shown on the preferences form
KINDS = {
    "alert_opened": "A machine alert opened",
    "alert_closed": "A machine alert closed",
    "maintenance_assigned": "A maintenance request assigned to you",
    "maintenance_overdue": "Your maintenance request is past its due date",
    "container_full": "A waste container marked Full",
    "account": "Your account's own events",
}
CHANNELS = ("console", "email", "both")
# A notification's title or body: fixed text, or a function that writes it in the language
# in force when called (each recipient's own, rows_for calls it once per language).
Text = str | Callable[[], str]
DEFAULT_CHANNEL = "console"


def module_holders(conn: Connection, module: int, barangay_id: int | None = None) -> list[int]:
    """Ids of active, enabled accounts holding the module (of one barangay when given:
    a machine's events go to its own barangay's people)."""
    query = (
        select(Account.id)
        .join(account_modules, account_modules.c.account_id == Account.id)
        .where(
            account_modules.c.module_id == module,
            Account.status == AccountStatus.ACTIVE,
            Account.is_enabled.is_(True),
        )
    )
    if barangay_id is not None:
        query = query.where(Account.barangay_id == barangay_id)
    rows = conn.execute(query)
    return [r[0] for r in rows]


def later(message: str, **values: object) -> Callable[[], str]:
    """A text written when a recipient's row is: `later(N_("Request #%(n)s ..."), n=7)`. A
    callable value is called then too, in the reader's language (a date in its date style)."""
    return lambda: _(message, **{k: v() if callable(v) else v for k, v in values.items()})


def languages_of(conn: Connection, account_ids: list[int]) -> dict[int, str]:
    """Each account's language for what it is sent: its choice, else English (as e-mails)."""
    rows = conn.execute(select(Account.id, Account.language).where(Account.id.in_(account_ids)))
    return {account_id: recipient_language(language) for account_id, language in rows}


def written_in(text: Text, language: str) -> str:
    if isinstance(text, str):
        return text
    with force_locale(language):
        return str(text())


def rows_for(
    conn: Connection,
    account_ids: list[int],
    kind: str,
    title: Text,
    body: Text,
    link: str,
    ref: str | None = None,
) -> list[dict]:
    """Notification rows for the accounts, each following its preference for the kind, each
    written in its reader's language."""
    if not account_ids:
        return []
    languages = languages_of(conn, account_ids) if callable(title) or callable(body) else {}
    texts: dict[str, tuple[str, str]] = {}
    prefs = dict(
        conn.execute(
            select(NotificationPreference.account_id, NotificationPreference.channel).where(
                NotificationPreference.kind == kind, NotificationPreference.account_id.in_(account_ids)
            )
        ).all()
    )
    now = utcnow()
    rows = []
    for account_id in account_ids:
        channel = prefs.get(account_id, DEFAULT_CHANNEL)
        language = languages.get(account_id, "en")
        if language not in texts:
            texts[language] = (written_in(title, language), written_in(body, language))
        title_text, body_text = texts[language]
        rows.append(
            {
                "account_id": account_id,
                "kind": kind,
                "title": title_text[:200],
                "body": body_text[:1000],
                "link": link[:300],
                "ref": ref,
                "created_at": now,
                "read_at": None,
                "in_console": channel in ("console", "both"),
                "email_state": "pending" if channel in ("email", "both") else "none",
            }
        )
    return rows


def notify(
    conn: Connection, account_ids: list[int], kind: str, title: Text, body: Text, link: str, ref=None
) -> int:
    rows = rows_for(conn, account_ids, kind, title, body, link, ref)
    if rows:
        conn.execute(insert(Notification), rows)
    return len(rows)


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def alert_event(alert: Alert, what: str, machine_name: str, last_seen: datetime | None = None) -> int:
    """Tell every holder of module 2 that an alert opened or closed (the caller commits)."""

    def label() -> str:
        return _("Silent") if alert.metric == "silent" else shown(metric_info(alert.metric).label)

    def detail() -> str:
        if alert.metric == "silent":
            if last_seen is None:
                return _("No reading yet.")
            return _("No reading since %(time)s UTC.", time=f"{last_seen:%Y-%m-%d %H:%M}")
        return _(
            "%(metric)s %(value)s %(unit)s, healthy range %(low)s–%(high)s.",
            metric=label(),
            value=_fmt(alert.value),
            unit=metric_info(alert.metric).unit,
            low=_fmt(alert.low),
            high=_fmt(alert.high),
        )

    def title() -> str:
        if what == "opened":
            return _("%(machine)s: %(metric)s alert opened", machine=machine_name, metric=label())
        return _("%(machine)s: %(metric)s alert closed", machine=machine_name, metric=label())

    conn = db.session.connection()
    barangay_id = (
        alert.barangay_id
        or conn.execute(select(Machine.barangay_id).where(Machine.id == alert.machine_id)).scalar()
    )  # a new alert is stamped at flush; its machine's barangay is the same
    holders = module_holders(conn, ModuleId.MACHINES, barangay_id)
    return notify(conn, holders, f"alert_{what}", title, detail, f"/sibol-machines/alerts/{alert.id}")


# Reading and marking --------------------------------------------------------------------


def unread_count(account_id: int) -> int:
    return (
        db.session.scalar(
            select(func.count()).where(
                Notification.account_id == account_id,
                Notification.in_console.is_(True),
                Notification.read_at.is_(None),
            )
        )
        or 0
    )


def list_for(account_id: int, *, unread_only: bool = False, limit: int = 50) -> list[Notification]:
    query = select(Notification).where(
        Notification.account_id == account_id, Notification.in_console.is_(True)
    )
    if unread_only:
        query = query.where(Notification.read_at.is_(None))
    return list(db.session.scalars(query.order_by(Notification.id.desc()).limit(limit)))


def mark_read(account_id: int, notification_id: int | str) -> Notification:
    row = get_by_id(Notification, notification_id)
    if row is None or row.account_id != account_id or not row.in_console:
        raise NotFound(_("Notification not found."))
    if row.read_at is None:
        row.read_at = utcnow()
        db.session.commit()
    return row


def mark_all_read(account_id: int) -> int:
    result = db.session.execute(
        update(Notification)
        .where(Notification.account_id == account_id, Notification.read_at.is_(None))
        .values(read_at=utcnow())
    )
    db.session.commit()
    return cast(CursorResult, result).rowcount


def preferences(account_id: int) -> dict[str, str]:
    stored = dict(
        db.session.execute(
            select(NotificationPreference.kind, NotificationPreference.channel).where(
                NotificationPreference.account_id == account_id
            )
        ).all()
    )
    return {kind: stored.get(kind, DEFAULT_CHANNEL) for kind in KINDS}


def parse_preferences(body: dict) -> dict[str, str]:
    if not body:
        raise Invalid(_("Send at least one kind of event."), field="body")
    parsed = {}
    for kind, channel in body.items():
        field = str(kind)[:40]
        if kind not in KINDS:
            raise Invalid(
                _("%(field)s is not a kind of event (%(value)s).", field=field, value=", ".join(KINDS)),
                field=field,
            )
        if channel not in CHANNELS:
            raise Invalid(_("%(field)s must be console, email or both.", field=field), field=field)
        parsed[kind] = channel
    return parsed


def set_preferences(account_id: int, choices: dict[str, str]) -> dict[str, str]:
    for kind, channel in choices.items():
        row = db.session.get(NotificationPreference, (account_id, kind))
        if row is None:
            db.session.add(NotificationPreference(account_id=account_id, kind=kind, channel=channel))
        else:
            row.channel = channel
    db.session.commit()
    return preferences(account_id)


# E-mail -----------------------------------------------------------------------------------


def deliver_pending(limit: int = 200) -> int:
    """Send the e-mail of pending notifications; each row is claimed first, so two workers
    never send one twice. Returns how many were handed to the mail server."""
    pending = db.session.execute(
        select(Notification.id, Account.email, Account.first_name, Account.username, Account.language)
        .join(Account, Account.id == Notification.account_id)
        .where(Notification.email_state == "pending")
        .order_by(Notification.id)
        .limit(limit)
    ).all()
    db.session.commit()
    sent = 0
    for notification_id, email, first_name, username, language in pending:
        claimed = db.session.execute(
            update(Notification)
            .where(Notification.id == notification_id, Notification.email_state == "pending")
            .values(email_state="sending")
        )
        db.session.commit()
        if not cast(CursorResult, claimed).rowcount:
            continue
        row = db.session.get_one(Notification, notification_id)
        ok = bool(email) and send_email(
            email or "",
            row.title,
            "notification",
            language=language,
            name=first_name or username,
            notification=row,
        )
        row.email_state = "sent" if ok else "failed"
        db.session.commit()
        sent += ok
    if pending:
        current_app.logger.info("notification e-mail: %d of %d sent", sent, len(pending))
    return sent
