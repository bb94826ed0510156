"""POST /api/telemetry: validate a whole request, then store it in one transaction.

Nothing is written until every reading has passed, so a refused request stores nothing. One
reading (what a controller sends) takes the lean path single.store_one: four statements, and
on SQLite one commit shared with the worker's other single readings of the moment (group.py). A batch takes `store`. In both the device's row is updated first: that takes the machine's write lock (a row lock on MariaDB, the
database lock on SQLite), so two requests of one machine never race on duplicates, rollups or
alerts. Readings are kept at one-second resolution: a resend of the same (machine, ts) is a
duplicate, counted and not stored twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import cast

from flask_babel import gettext as _
from sqlalchemy import CursorResult, case, insert, or_, select, update

from ..devices.service import forget
from ..errors import Invalid, Unauthorized
from ..extensions import db
from ..inputs.numbers import finite
from ..models import utcnow
from ..models.telemetry import METRICS, DeviceKey, Reading
from . import alerts, group, rollups, single
from .metrics import metric_info

MAX_READINGS = 500
FUTURE_SLACK = timedelta(minutes=5)
MAX_AGE = timedelta(days=30)
EPOCH = datetime(1970, 1, 1)


@dataclass
class IngestResult:
    accepted: int
    duplicates: int
    notified: int  # notifications created (e-mail may be pending for some)


def _where(index: int | None, field: str) -> str:
    return field if index is None else f"readings[{index}].{field}"


def parse_ts(value: object, index: int | None, now: datetime) -> datetime:
    """ISO 8601 with an offset, or epoch milliseconds; naive UTC, whole seconds."""
    field = _where(index, "ts")
    if value is None:
        return now.replace(microsecond=0)
    if isinstance(value, bool):
        raise Invalid(
            _("%(field)s must be ISO 8601 with an offset or epoch milliseconds.", field=field), field=field
        )
    if isinstance(value, int | float):
        millis = finite(value)
        if millis is None or abs(millis) > 1e14:
            raise Invalid(_("%(field)s must be epoch milliseconds.", field=field), field=field)
        ts = EPOCH + timedelta(milliseconds=int(millis))
    elif isinstance(value, str) and len(value) <= 40:
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            raise Invalid(_("%(field)s is not an ISO 8601 time.", field=field), field=field) from None
        if parsed.tzinfo is None:
            raise Invalid(
                _("%(field)s needs a UTC offset (e.g. 2026-05-01T08:00:00+08:00).", field=field), field=field
            )
        ts = parsed.astimezone(UTC).replace(tzinfo=None)
    else:
        raise Invalid(
            _("%(field)s must be ISO 8601 with an offset or epoch milliseconds.", field=field), field=field
        )
    ts = ts.replace(microsecond=0)
    if ts > now + FUTURE_SLACK:
        raise Invalid(_("%(field)s is more than 5 minutes in the future.", field=field), field=field)
    if ts < now - MAX_AGE:
        raise Invalid(_("%(field)s is older than 30 days.", field=field), field=field)
    return ts


def parse_reading(raw: object, index: int | None, now: datetime) -> dict:
    """One reading as {"ts": datetime, metric: float, ...}; Invalid names index and field."""
    if not isinstance(raw, dict):
        field = "body" if index is None else f"readings[{index}]"
        raise Invalid(_("%(field)s must be a JSON object.", field=field), field=field)
    reading: dict = {}
    for name, value in raw.items():
        if name == "ts":
            continue
        field = _where(index, str(name)[:40])
        if name not in METRICS:
            raise Invalid(_("%(field)s is not a known field.", field=field), field=field)
        if value is None:
            continue
        number = finite(value)
        if number is None:
            raise Invalid(_("%(field)s must be a finite number.", field=field), field=field)
        info = metric_info(name)
        if info.minimum is not None and number < info.minimum:
            raise Invalid(_range_message(field, info.minimum, info.maximum), field=field)
        if info.maximum is not None and number > info.maximum:
            raise Invalid(_range_message(field, info.minimum, info.maximum), field=field)
        reading[name] = number
    if not reading:
        field = "body" if index is None else f"readings[{index}]"
        raise Invalid(
            _("%(field)s carries no metric (%(value)s).", field=field, value=", ".join(METRICS)), field=field
        )
    reading["ts"] = parse_ts(raw.get("ts"), index, now)
    return reading


def _range_message(field: str, low: float | None, high: float | None) -> str:
    if high is None:
        return f"{field} must not be negative."
    return f"{field} must be between {low:g} and {high:g}."


def parse_body(body: dict, now: datetime) -> list[dict]:
    """The request's readings: one object, or {"readings": [...]} with 1 to 500."""
    if "readings" not in body:
        return [parse_reading(body, None, now)]
    if len(body) > 1:
        extra = sorted(k for k in body if k != "readings")[0][:40]
        raise Invalid(_("%(extra)s is not a known field next to readings.", extra=extra), field=extra)
    items = body["readings"]
    if not isinstance(items, list):
        raise Invalid(_("readings must be a list."), field="readings")
    if not items:
        raise Invalid(_("readings is empty."), field="readings")
    if len(items) > MAX_READINGS:
        raise Invalid(
            _("readings holds more than %(max_readings)s readings.", max_readings=MAX_READINGS),
            field="readings",
        )
    return [parse_reading(item, i, now) for i, item in enumerate(items)]


def ingest(device: DeviceKey, body: dict) -> IngestResult:
    """Validate every reading, then store the new ones, their rollups and alerts in one commit."""
    now = utcnow()
    readings = parse_body(body, now)
    db.session.commit()  # end the read of the key: the write below starts a fresh transaction
    return store(device.machine_id, readings, now=now)


def ingest_for_key(machine_id: int, key_hash: str, body: dict) -> IngestResult:
    """ingest() for a device known by its key's hash (keys.authenticate): one reading takes the
    lean path, a batch the general one; both refuse a key revoked before their commit."""
    now = utcnow()
    readings = parse_body(body, now)
    db.session.commit()  # nothing read so far stays open: the write starts a fresh transaction
    if len(readings) == 1:
        outcome = group.store_one(machine_id, key_hash, readings[0], now=now)
        if outcome == single.REFUSED:
            forget(key_hash)
            raise Unauthorized(_("Unknown or revoked device key."))
        if outcome != single.GENERAL:
            return IngestResult(*outcome)
    return store(machine_id, readings, now=now, key_hash=key_hash)


def store(
    machine_id: int, readings: list[dict], *, now: datetime, key_hash: str | None = None, merge: bool = False
) -> IngestResult:
    """Store parsed readings of one machine: new ones only, with rollups and alerts, one commit.
    With `key_hash`, only while that key is still the machine's (else Unauthorized).

    With `merge`, a reading at a time already stored fills that row's missing metrics instead of
    being a duplicate (routes that send a reading's metrics in separate requests, such as SIBOL's
    own device API); it is a duplicate only when every metric it carries is already there."""
    # Every ts of the batch is stored once this commits (new, or already there), so the newest
    # reading is known before the duplicate check.
    newest = max(r["ts"] for r in readings)
    last = DeviceKey.last_reading_at
    same_key = DeviceKey.key_hash.is_not(None) if key_hash is None else DeviceKey.key_hash == key_hash
    locked = db.session.execute(
        update(DeviceKey)
        .where(DeviceKey.machine_id == machine_id, same_key)
        .values(
            last_seen_at=now, last_reading_at=case((or_(last.is_(None), last < newest), newest), else_=last)
        )
    )
    if not cast(CursorResult, locked).rowcount:  # revoked between the check and now
        db.session.rollback()
        if key_hash is not None:
            forget(key_hash)
        raise Unauthorized(_("Unknown or revoked device key."))
    wanted = {r["ts"] for r in readings}
    existing = set(
        db.session.scalars(select(Reading.ts).where(Reading.machine_id == machine_id, Reading.ts.in_(wanted)))
    )
    fresh: dict[datetime, dict] = {}
    for reading in readings:
        if reading["ts"] not in existing and reading["ts"] not in fresh:
            fresh[reading["ts"]] = reading
    new_rows = [
        {"machine_id": machine_id, **{m: None for m in METRICS}, **r}
        for r in sorted(fresh.values(), key=lambda r: r["ts"])
    ]
    filled = _fill_missing(machine_id, [r for r in readings if r["ts"] in existing]) if merge else []
    notified = 0
    if new_rows:
        db.session.execute(insert(Reading), new_rows)
    if new_rows or filled:
        changed = sorted(new_rows + filled, key=lambda r: r["ts"])
        rollups.add_readings(machine_id, changed)
        notified = alerts.evaluate(machine_id, changed, now=now)
    db.session.commit()
    accepted = len(new_rows) + len(filled)
    return IngestResult(accepted=accepted, duplicates=len(readings) - accepted, notified=notified)


def _fill_missing(machine_id: int, readings: list[dict]) -> list[dict]:
    """Set the metrics that stored rows lack from readings at the same times; returns the values
    set, one dict per row, for the rollups and alerts (the caller holds the machine's lock)."""
    if not readings:
        return []
    rows = db.session.execute(
        select(Reading).where(Reading.machine_id == machine_id, Reading.ts.in_({r["ts"] for r in readings}))
    ).scalars()
    stored = {row.ts: row for row in rows}
    filled = []
    for reading in readings:
        row = stored[reading["ts"]]
        values = {m: v for m, v in reading.items() if m in METRICS and getattr(row, m) is None}
        if values:
            for metric, value in values.items():
                setattr(row, metric, value)
            filled.append({"ts": reading["ts"], **values})
    return filled
