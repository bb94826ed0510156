"""One time zone for every date and time people read (issue 18).

Instants are stored as naive UTC datetimes; pages show them in the barangay's zone,
`SIBOL_TIMEZONE` (Asia/Manila by default). Templates use the filters registered here:
`local_date`, `local_time`, `local_datetime` (and `iso_utc` for <time datetime>).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask, current_app, has_app_context

DEFAULT_ZONE = "Asia/Manila"
DATE_FORMAT = "%b %-d, %Y"
TIME_FORMAT = "%-I:%M %p"


def zone() -> ZoneInfo:
    """The configured zone; an unknown name falls back to Asia/Manila."""
    name = current_app.config.get("SIBOL_TIMEZONE", DEFAULT_ZONE) if has_app_context() else DEFAULT_ZONE
    try:
        return ZoneInfo(name or DEFAULT_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_ZONE)


def time_zone_name() -> str:
    return zone().key


def now() -> datetime:
    return datetime.now(zone())


def today() -> date:
    return now().date()


def to_local(value: datetime) -> datetime:
    """A stored instant (naive UTC, or aware) in the barangay's zone."""
    aware = value.replace(tzinfo=UTC) if value.tzinfo is None else value
    return aware.astimezone(zone())


def utc_time_to_local(day: date, value: time) -> time:
    """A UTC wall-clock time recorded on `day` (UTC) as the barangay's local time."""
    return to_local(datetime.combine(day, value)).time()


def local_clock(entered: datetime | None, clock: time | None) -> str:
    """A UTC wall-clock time recorded when `entered` (UTC), shown as the local time of day."""
    if clock is None:
        return ""
    day = entered.date() if entered else datetime.now(UTC).date()
    return utc_time_to_local(day, clock).strftime(TIME_FORMAT)


def local_date(value: date | datetime | None, fmt: str = DATE_FORMAT) -> str:
    """Jan 5, 2026. A datetime is an instant (converted); a date is already a local calendar day."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = to_local(value)
    return value.strftime(fmt)


def local_time(value: datetime | time | None) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = to_local(value)
    return value.strftime(TIME_FORMAT)


def local_datetime(value: datetime | None) -> str:
    if value is None:
        return ""
    local = to_local(value)
    return f"{local.strftime(DATE_FORMAT)} {local.strftime(TIME_FORMAT)}"


def iso_utc(value: datetime | None) -> str:
    """The machine-readable instant for <time datetime="...">."""
    if value is None:
        return ""
    aware = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return aware.isoformat(timespec="seconds").replace("+00:00", "Z")


def init_localtime(app: Flask) -> None:
    app.jinja_env.globals.update(local_clock=local_clock, time_zone_name=time_zone_name)
    app.jinja_env.filters.update(
        local_date=local_date, local_time=local_time, local_datetime=local_datetime, iso_utc=iso_utc
    )
