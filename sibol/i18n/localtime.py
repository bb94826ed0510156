"""One time zone for every date and time people read.

Instants are stored as naive UTC datetimes; pages show them in the barangay's zone,
`SIBOL_TIMEZONE` (Asia/Manila by default). Templates use the filters registered here:
`local_date`, `local_time`, `local_datetime` (and `iso_utc` for <time datetime>).

Dates and times follow the reader's language through Babel, with fixed patterns so
English reads exactly as before ("Jan 5, 2026", "5:30 PM") and Filipino names its months
("Ene 5, 2026"). Outside a request (tasks, commands) they are English. `number` formats counts
and points with the language's grouping.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_date as babel_format_date
from babel.dates import format_time as babel_format_time
from babel.numbers import format_decimal
from flask import Flask, current_app, has_app_context, has_request_context

from .languages import current_language

DEFAULT_ZONE = "Asia/Manila"
DATE_FORMAT = "%b %-d, %Y"  # strftime, for callers that pass their own format
DATE_PATTERN = "MMM d, y"  # the same in Babel's (CLDR) notation, in the reader's language
TIME_PATTERN = "h:mm a"
LONG_DATE_PATTERN = "EEEE, MMMM d, y"  # a day named in full: "Thursday, November 26, 2026"
MONTH_PATTERN = "MMMM y"
# strftime formats templates pass to local_date, each mapped onto the console's one date style
# (short, long or month) in CLDR notation, so every page, report and e-mail writes a date alike.
CLDR_PATTERNS = {
    DATE_FORMAT: DATE_PATTERN,
    "%b %d, %Y": DATE_PATTERN,
    "%A, %B %-d, %Y": LONG_DATE_PATTERN,
    "%A, %d %B %Y": LONG_DATE_PATTERN,
    "%B %Y": MONTH_PATTERN,
    "%-d %b": "d MMM",  # a day in a compact line: "26 Nov"
}

ENGLISH_MONTHS = {
    name: n
    for n, name in enumerate(
        "January February March April May June July August September October November December".split(), 1
    )
}


def locale_code() -> str:
    """The reader's language ("en" or "fil"); English outside a request."""
    if not has_request_context():
        from flask_babel import get_locale

        locale = get_locale() if has_app_context() else None
        return str(locale) if locale is not None else "en"

    return current_language()


def number(value: float | int | None) -> str:
    """1,234 (or 1,234.5): grouped the reader's way."""
    if value is None:
        return ""
    return format_decimal(value, locale=locale_code())


def format_pattern(value: date | datetime, pattern: str) -> str:
    """A date (or a datetime, as given) in a Babel/CLDR pattern, in the reader's language."""
    if isinstance(value, datetime):
        from babel.dates import format_datetime

        return format_datetime(value, pattern, locale=locale_code())
    return babel_format_date(value, pattern, locale=locale_code())


def week_label(first: date, last: date) -> str:
    """A week's first and last days, "Nov 23 – Nov 29, 2026", months in the reader's language."""
    return f"{format_pattern(first, 'MMM d')} – {format_pattern(last, 'MMM d')}, {last.year}"


def month_name(english: str, width: Literal["abbreviated", "narrow", "wide"] = "wide") -> str:
    """An English month name ("November", as the dashboard's figures carry it) in the reader's
    language ("Nobyembre"; width "abbreviated": "Nob"); any other text unchanged."""
    from babel.dates import get_month_names

    number = ENGLISH_MONTHS.get(english)
    if number is None:
        return english
    return str(get_month_names(width, "stand-alone", locale=locale_code())[number])


def _format_date(value: date) -> str:
    return babel_format_date(value, DATE_PATTERN, locale=locale_code())


def _format_time(value: time) -> str:
    return babel_format_time(value, TIME_PATTERN, locale=locale_code())


def month_bounds(day: date) -> tuple[date, date]:
    """The first day of `day`'s month and the first day of the next."""
    start = day.replace(day=1)
    return start, date(start.year + (start.month == 12), start.month % 12 + 1, 1)


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
    return _format_time(utc_time_to_local(day, clock))


def local_date(value: date | datetime | None, fmt: str = DATE_FORMAT) -> str:
    """Jan 5, 2026. A datetime is an instant (converted); a date is already a local calendar day."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = to_local(value)
    if fmt in CLDR_PATTERNS:
        return babel_format_date(value, CLDR_PATTERNS[fmt], locale=locale_code())
    return value.strftime(fmt)


def local_time(value: datetime | time | None) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = to_local(value)
    return _format_time(value if isinstance(value, time) else value.time())


def local_datetime(value: datetime | str | None) -> str:
    """A stored instant in the barangay's clock and the reader's date style; an ISO text (as the
    JSON serializers give, "...Z") is read first."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    local = to_local(value)
    return f"{_format_date(local)} {_format_time(local.time())}"


def local_period_start(value: datetime, unit: Literal["hour", "day", "month"]) -> datetime:
    """The start of the local hour, day or month a stored instant falls in, as a naive local
    datetime: charts and tables group readings by the barangay's calendar, not UTC's (in Manila a
    reading at 23:30 UTC belongs to the next day)."""
    local = to_local(value).replace(tzinfo=None, minute=0, second=0, microsecond=0)
    if unit == "hour":
        return local
    local = local.replace(hour=0)
    return local.replace(day=1) if unit == "month" else local


def utc_start_of(day: date) -> datetime:
    """The instant (naive UTC, as stored) when `day` begins in the barangay's zone."""
    return datetime.combine(day, time.min, tzinfo=zone()).astimezone(UTC).replace(tzinfo=None)


def iso_utc(value: datetime | None) -> str:
    """The machine-readable instant for <time datetime="...">."""
    if value is None:
        return ""
    aware = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return aware.isoformat(timespec="seconds").replace("+00:00", "Z")


def init_localtime(app: Flask) -> None:
    app.jinja_env.globals.update(local_clock=local_clock, time_zone_name=time_zone_name)
    app.jinja_env.filters.update(
        local_date=local_date,
        local_time=local_time,
        local_datetime=local_datetime,
        iso_utc=iso_utc,
        number=number,
        month_name=month_name,
    )
