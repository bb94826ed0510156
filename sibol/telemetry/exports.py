"""CSV exports of telemetry: the machine alerts table (the state and machine it shows, every alert,
where the page shows the newest 200) and a metric's readings series (sibol/data/export.py)."""

from __future__ import annotations

from collections.abc import Iterable

from flask import Response
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..data.export import stream_rows
from ..i18n.localtime import time_zone_name
from ..models import Machine
from ..models.telemetry import Alert
from ..web.downloads import csv_response
from . import alerts, panels
from .metrics import metric_info
from .rollups import Point

ALERT_HEADERS = (
    _l("Machine"),
    _l("Metric"),
    _l("Value"),
    _l("Unit"),
    _l("Healthy range"),
    _l("Opened"),
    _l("Closed"),
    _l("Acknowledged"),
)


def _number(value: float | None) -> str:
    """A range bound as the page shows it (%g)."""
    return "" if value is None else f"{value:g}"


def alerts_csv(state: str, machine_id: int | None) -> Response:
    statement = (
        alerts.alerts_query(state, machine_id)
        .add_columns(Machine.name)
        .outerjoin(Machine, Machine.id == Alert.machine_id)
    )

    def shape(row):
        alert, name = row
        silent = alert.metric == alerts.SILENT
        label = "Silent" if silent else metric_info(alert.metric).label
        unit = "" if silent else metric_info(alert.metric).unit
        healthy = f"{_number(alert.low)}–{_number(alert.high)}" if alert.low is not None else ""
        return (
            name or f"#{alert.machine_id}",
            label,
            alert.value,
            unit,
            healthy,
            alert.opened_at,
            alert.closed_at or "open",
            alert.acknowledged_by_name or "no",
        )

    return csv_response(f"alerts-{state}", ALERT_HEADERS, stream_rows(statement), shape)


READING_HEADERS = (_l("Time"), _l("Metric"), _l("Min"), _l("Max"), _l("Average"), _l("Readings"), _l("Unit"))


def readings_csv(machine_id: int, metric: str, bucket: str, points: Iterable[Point]) -> Response:
    """One metric's readings (bucket raw) or buckets of them, as the series endpoint answers."""
    info = metric_info(metric)

    def shape(p: Point):
        return (
            p.ts,
            info.label,
            _number(p.min),
            _number(p.max),
            _number(round(p.avg, 4)),
            p.count,
            info.unit,
        )

    return csv_response(f"machine-{machine_id}-{metric}-{bucket}", READING_HEADERS, points, shape)


def analytics_headers() -> tuple:
    """The columns, the period's naming the barangay's time zone its buckets follow."""
    return (
        _("Metric"),
        _("Unit"),
        _("Period (%(zone)s)", zone=time_zone_name()),
        _("Min"),
        _("Average"),
        _("Max"),
        _("Readings"),
    )


# ISO, as spreadsheets read them; local periods like the tab's.
PERIOD_FORMATS = {"1h": "%Y-%m-%d %H:00", "1d": "%Y-%m-%d", "1mo": "%Y-%m"}


def analytics_csv(machine_id: int, range_key: str) -> Response:
    """The Analytics tab's tables (one per metric) as one file: a row per metric and period.
    Bounded by the range (at most a year of days or 12 months), so read as the tab reads it."""
    figures = panels.analytics(machine_id, range_key)
    fmt = PERIOD_FORMATS[figures["bucket"]]
    rows = [
        (chart["label"], chart["unit"], period.strftime(fmt), _figure(lo), _figure(avg), _figure(hi), n)
        for chart in figures["charts"]
        for period, lo, avg, hi, n in chart["rows"]
    ]
    return csv_response(
        f"machine-{machine_id}-analytics-{range_key}", analytics_headers(), rows, lambda row: row
    )


def _figure(shown: str) -> float | None:
    """A figure as the tab shows it ("1,234", "6.5", "–") back to a number a spreadsheet sums."""
    try:
        return float(shown.replace(",", ""))
    except ValueError:
        return None
