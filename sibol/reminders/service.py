"""Who is reminded, the job that plans each evening's reminders, and the send of one reminder.

Sending once: the job inserts one ReminderMessage per (collection, subscription, channel) under a
unique key, so a second run (or a second worker) finds the row and sends nothing new. A message
is marked "sending" in its own commit before the gateway is called; one found "sending" later
(the worker died there) is marked failed, never sent again: a resident gets at most one text.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from ..auth.service import check_email
from ..errors import Invalid, NotFound
from ..extensions import db
from ..i18n import localtime
from ..identity import tenancy
from ..inputs.fields import Errors
from ..models import (
    Account,
    Barangay,
    CollectionSchedule,
    CollectionStatus,
    HouseholdMember,
    ReminderMessage,
    ReminderStatus,
    ReminderSubscription,
)
from ..models.core import utcnow
from . import texts

STUCK_AFTER = timedelta(minutes=15)


def clean_hour(raw: object) -> int:
    try:
        hour = int(str(raw).strip())
    except ValueError:
        hour = -1
    if not 0 <= hour <= 23:
        raise Invalid(_("Reminder hour must be a whole hour from 0 to 23."), field="reminderHour")
    return hour


def subscribe(member: HouseholdMember, data: dict, actor: Account) -> ReminderSubscription:
    """Record the household's consent (by itself, or by staff on its record): channels, mobile,
    e-mail, language. Every field is checked before anything is written; one transaction."""
    errors = Errors()
    by_sms, by_email = bool(data.get("bySms")), bool(data.get("byEmail"))
    mobile = email = None
    if not data.get("consent"):
        errors.add("consent", _("The household must agree to be reminded."))
    if not (by_sms or by_email):
        errors.add("bySms", _("Choose SMS, e-mail or both."))
    if by_sms:
        try:
            mobile = texts.clean_mobile(data.get("mobile"))
        except Invalid as err:
            errors.add("mobile", err.message)
    if by_email:
        try:
            email = check_email(str(data.get("email") or ""))
        except Invalid as err:
            errors.add("email", err.message)
    language = str(data.get("language")) if data.get("language") in texts.TEMPLATES else "fil"
    errors.raise_if_any()
    sub = db.session.scalar(select(ReminderSubscription).where(ReminderSubscription.member_id == member.id))
    if sub is None:
        sub = ReminderSubscription(member_id=member.id, stop_token=secrets.token_urlsafe(8))
        db.session.add(sub)
    sub.by_sms, sub.by_email, sub.mobile, sub.email = by_sms, by_email, mobile, email
    sub.language, sub.consent_at, sub.consent_by_id, sub.stopped_at = language, utcnow(), actor.id, None
    db.session.commit()
    return sub


def subscription_of(member: HouseholdMember) -> ReminderSubscription | None:
    return db.session.scalar(select(ReminderSubscription).where(ReminderSubscription.member_id == member.id))


def by_stop_token(token: str) -> ReminderSubscription:
    """The subscription a stop link names (any barangay's: the link carries no sign-in)."""
    with tenancy.unscoped():
        sub = db.session.scalar(select(ReminderSubscription).where(ReminderSubscription.stop_token == token))
    if sub is None:
        raise NotFound(_("This stop link is not known."))
    return sub


def _cancel_queued(sub: ReminderSubscription, channel: str | None = None) -> None:
    """Reminders already queued for this subscription (by one channel, or all) are cancelled."""
    query = select(ReminderMessage).where(
        ReminderMessage.subscription_id == sub.id, ReminderMessage.status == ReminderStatus.QUEUED
    )
    if channel is not None:
        query = query.where(ReminderMessage.channel == channel)
    for message in db.session.scalars(query):
        message.status = ReminderStatus.CANCELLED


def _end(sub: ReminderSubscription) -> None:
    """No more reminders for this subscription, by any channel (no commit)."""
    if sub.stopped_at is None:
        sub.stopped_at = utcnow()
    _cancel_queued(sub)


def stop(token: str) -> ReminderSubscription:
    """The stop link's button: no more reminders, at once; reminders already queued are cancelled."""
    with tenancy.unscoped():
        sub = by_stop_token(token)
        _end(sub)
        db.session.commit()
        return sub


def stop_sms_for(number: str) -> int:
    """A STOP reply from this mobile: every SMS reminder to it ends at once (e-mail reminders of
    the same households go on). Returns how many subscriptions it ended."""
    ended = 0
    with tenancy.unscoped():
        for sub in db.session.scalars(
            select(ReminderSubscription).where(
                ReminderSubscription.mobile == number, ReminderSubscription.by_sms.is_(True)
            )
        ):
            sub.by_sms = False
            if sub.by_email:
                _cancel_queued(sub, "sms")
            else:
                _end(sub)
            ended += 1
        db.session.commit()
    return ended


def _schedule_for(member: HouseholdMember, schedules: list[CollectionSchedule]) -> CollectionSchedule | None:
    """The member's area's collection among tomorrow's (members without an area: the first)."""
    area = (member.barangay or "").strip().casefold()
    for schedule in schedules:
        if area and area in (name.casefold() for name in schedule.area_names):
            return schedule
    return None if area and len(schedules) > 1 else (schedules[0] if schedules else None)


def plan(now: datetime | None = None, *, sms_on: bool = True) -> list[int]:
    """Insert tomorrow's reminders of every barangay whose reminder hour has come (local time);
    returns the ids of the messages to send (new ones, queued ones a dead run left, and ones a
    dead worker left "sending", which claim() then marks failed)."""
    local = localtime.to_local(now or utcnow())
    tomorrow = local.date() + timedelta(days=1)
    due: list[int] = []
    with tenancy.unscoped():
        for barangay in db.session.scalars(select(Barangay).where(Barangay.is_active.is_(True))):
            if local.hour < barangay.reminder_hour:
                continue
            schedules = list(
                db.session.scalars(
                    select(CollectionSchedule).where(
                        CollectionSchedule.barangay_id == barangay.id,
                        CollectionSchedule.collection_date == tomorrow,
                        CollectionSchedule.status == CollectionStatus.PENDING,
                    )
                )
            )
            if not schedules:
                continue
            subs = db.session.scalars(
                select(ReminderSubscription).where(
                    ReminderSubscription.barangay_id == barangay.id, ReminderSubscription.stopped_at.is_(None)
                )
            )
            for sub in subs:
                schedule = _schedule_for(sub.member, schedules)
                if schedule is None or not sub.member.is_active:
                    continue
                for channel, wanted in (("sms", sub.by_sms and sms_on), ("email", sub.by_email)):
                    if wanted:
                        _insert_once(sub, schedule, channel, barangay.id)
        stuck = (ReminderMessage.status == ReminderStatus.SENDING) & (
            ReminderMessage.sent_at < utcnow() - STUCK_AFTER
        )
        due = list(
            db.session.scalars(
                select(ReminderMessage.id).where((ReminderMessage.status == ReminderStatus.QUEUED) | stuck)
            )
        )
    return due


def _insert_once(
    sub: ReminderSubscription, schedule: CollectionSchedule, channel: str, barangay_id: int
) -> None:
    try:
        with db.session.begin_nested():
            db.session.add(
                ReminderMessage(
                    subscription_id=sub.id, schedule_id=schedule.id, channel=channel, barangay_id=barangay_id
                )
            )
        db.session.commit()
    except IntegrityError:  # already planned by an earlier run
        db.session.rollback()


def sms_sent_today(barangay_id: int) -> int:
    start = localtime.utc_start_of(localtime.today())
    return int(
        db.session.scalar(
            select(func.count(ReminderMessage.id)).where(
                ReminderMessage.barangay_id == barangay_id,
                ReminderMessage.channel == "sms",
                ReminderMessage.status.in_([ReminderStatus.SENT, ReminderStatus.SENDING]),
                ReminderMessage.sent_at >= start,
            )
        )
        or 0
    )


def claim(message_id: int) -> ReminderMessage | None:
    """Take a queued message for sending (one commit): None when it is not to be sent (sent,
    failed, cancelled, stopped, the collection no longer pending, or over the daily cap)."""
    message = db.session.get(ReminderMessage, message_id)
    if message is None:
        return None
    if message.status == ReminderStatus.SENDING and utcnow() - (message.sent_at or utcnow()) > STUCK_AFTER:
        message.status, message.error = ReminderStatus.FAILED, "the worker stopped while sending"
        db.session.commit()
        return None
    if message.status != ReminderStatus.QUEUED:
        return None
    schedule = db.session.get(CollectionSchedule, message.schedule_id)
    if (
        message.subscription.stopped_at is not None
        or schedule is None
        or schedule.status != CollectionStatus.PENDING
    ):
        message.status = ReminderStatus.CANCELLED
        db.session.commit()
        return None
    if message.channel == "sms":
        barangay = db.session.get(Barangay, message.barangay_id)
        if barangay is not None and sms_sent_today(barangay.id) >= barangay.sms_daily_cap:
            message.status, message.error = ReminderStatus.CAPPED, "daily SMS cap reached"
            db.session.commit()
            return None
    # Taken only if still queued: of two workers holding the same id, one wins, one skips.
    taken = db.session.execute(
        update(ReminderMessage)
        .where(ReminderMessage.id == message.id, ReminderMessage.status == ReminderStatus.QUEUED)
        .values(status=ReminderStatus.SENDING, sent_at=utcnow(), attempts=ReminderMessage.attempts + 1)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    if getattr(taken, "rowcount", 0) != 1:
        return None
    db.session.refresh(message)
    return message


def finish(message: ReminderMessage, error: str | None, parts: int = 1) -> bool:
    """Record the outcome: sent (with its cost), queued again for a retry, or failed after the
    last try. True when the caller should raise for the queue's back-off."""
    tries = int(current_app.config.get("SIBOL_REMINDER_TRIES", 3))
    if error is None:
        message.status = ReminderStatus.SENT
        if message.channel == "sms":
            message.cost_centavos = parts * int(current_app.config.get("SIBOL_SMS_COST_CENTAVOS", 50))
        db.session.commit()
        return False
    message.error = error[:255]
    retry = message.attempts < tries
    message.status = ReminderStatus.QUEUED if retry else ReminderStatus.FAILED
    db.session.commit()
    return retry


def summary(days: int = 30) -> dict:
    """For the admin: per status, the count and cost (centavos) of the last `days` days, and the
    latest messages."""
    since = utcnow() - timedelta(days=days)
    rows = db.session.execute(
        select(
            ReminderMessage.channel,
            ReminderMessage.status,
            func.count(),
            func.sum(ReminderMessage.cost_centavos),
        )
        .where(ReminderMessage.created_at >= since)
        .group_by(ReminderMessage.channel, ReminderMessage.status)
    ).all()
    latest = list(db.session.scalars(select(ReminderMessage).order_by(ReminderMessage.id.desc()).limit(50)))
    return {
        "counts": [(c, s, int(n), int(cost or 0)) for c, s, n, cost in rows],
        "cost_centavos": sum(int(cost or 0) for *_x, cost in rows),
        "latest": latest,
    }
