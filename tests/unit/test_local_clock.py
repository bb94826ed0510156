"""One clock and one date style: readings grouped by the barangay's calendar (Asia/Manila), and
each language writing a date one way on every page, chart and report."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from flask import Flask
from flask_babel import Babel, force_locale

from sibol.i18n.localtime import local_date, local_datetime, local_period_start
from sibol.telemetry.panels import bucket_label


@pytest.fixture
def request_in():
    """A request context whose language is forced, as a reader's would be."""
    app = Flask(__name__)
    app.config["SIBOL_TIMEZONE"] = "Asia/Manila"
    Babel(app)

    def enter(language: str):
        ctx = app.test_request_context("/")
        ctx.push()
        forced = force_locale(language)
        forced.__enter__()
        return ctx, forced

    opened: list = []
    yield lambda language: opened.append(enter(language))
    for ctx, forced in reversed(opened):
        forced.__exit__(None, None, None)
        ctx.pop()


def test_a_reading_late_in_the_utc_evening_belongs_to_the_next_manila_day():
    late = datetime(2026, 11, 25, 23, 30)  # stored naive UTC: 07:30 on the 26th in Manila
    assert local_period_start(late, "day") == datetime(2026, 11, 26)
    assert local_period_start(late, "hour") == datetime(2026, 11, 26, 7)
    assert local_period_start(datetime(2026, 11, 25, 15, 59), "day") == datetime(2026, 11, 25)


def test_the_last_utc_evening_of_a_month_opens_the_next_manila_month():
    assert local_period_start(datetime(2026, 11, 30, 20, 0), "month") == datetime(2026, 12, 1)
    assert local_period_start(datetime(2026, 11, 30, 15, 0), "month") == datetime(2026, 11, 1)


def test_dates_read_one_way_in_english(request_in):
    request_in("en")
    day = date(2026, 1, 5)
    assert local_date(day) == "Jan 5, 2026"
    assert local_date(day, "%b %d, %Y") == "Jan 5, 2026"  # no second, zero-padded style
    assert local_date(day, "%A, %d %B %Y") == local_date(day, "%A, %B %-d, %Y") == "Monday, January 5, 2026"
    assert local_date(day, "%B %Y") == "January 2026"
    assert bucket_label(datetime(2026, 1, 5), "1d") == "Jan 5, 2026"
    assert bucket_label(datetime(2026, 1, 5, 14), "1h") == "Jan 5, 2026 14:00"
    assert bucket_label(datetime(2026, 1, 1), "1mo") == "January 2026"


def test_dates_read_one_way_in_filipino(request_in):
    request_in("fil")
    day = date(2026, 1, 5)
    assert local_date(day) == "Ene 5, 2026"
    assert local_date(day, "%b %d, %Y") == "Ene 5, 2026"
    assert local_date(day, "%A, %d %B %Y") == local_date(day, "%A, %B %-d, %Y") == "Lunes, Enero 5, 2026"
    assert local_date(day, "%B %Y") == "Enero 2026"  # the month named in Filipino, not English
    assert bucket_label(datetime(2026, 1, 5), "1d") == "Ene 5, 2026"
    assert bucket_label(datetime(2026, 1, 1), "1mo") == "Enero 2026"


def test_an_instant_is_dated_by_the_manila_calendar(request_in):
    request_in("en")
    assert local_date(datetime(2026, 11, 25, 23, 30)) == "Nov 26, 2026"


def test_an_audit_instant_from_json_is_shown_on_the_manila_clock(request_in):
    """The account audit gets ISO texts ("...Z") from its serializer: the page shows them in
    Manila time, never a UTC clock, and an empty value as nothing."""
    request_in("en")
    shown = local_datetime("2026-11-25T23:30:00Z")
    assert shown.startswith("Nov 26, 2026") and "7:30" in shown and "AM" in shown
    assert local_datetime("") == ""
