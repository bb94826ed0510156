"""What the Process Panels and Analytics tabs of /sibol-machines show: plain dicts and lists for
the templates, computed from the rollups, alerts and device keys."""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime, timedelta
from typing import Literal

from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import select

from ..extensions import db
from ..i18n.labels import shown
from ..i18n.languages import bound_gettext
from ..i18n.localtime import (
    DATE_PATTERN,
    MONTH_PATTERN,
    format_pattern,
    local_period_start,
    to_local,
    utc_start_of,
)
from ..models import RoleId, utcnow
from ..models.telemetry import METRICS, DeviceKey, Rollup
from ..web import charts as svg_charts
from . import alerts, rollups
from .metrics import metric_info
from .serializers import ago

RANGES = OrderedDict(
    [
        ("24h", ("Last 24 hours", timedelta(hours=24), "1h")),
        ("7d", ("Last 7 days", timedelta(days=7), "1d")),
        ("30d", ("Last 30 days", timedelta(days=30), "1d")),
        ("1y", ("Last 12 months", timedelta(days=365), "1mo")),
    ]
)
SPARK_W, SPARK_H = 240, 48
EDITOR_ROLES = (RoleId.ADMIN, RoleId.STAFF, RoleId.CITY_ADMIN)  # who changes keys and ranges


def machine_tab(tab: str, machine_id: int | None, range_key: str | None, role_id: int) -> dict:
    """The template context of the Process Panels or Analytics tab for one machine; an unknown
    range is the last 24 hours."""
    if machine_id is None:
        return {}
    if tab == "process-panels":
        return {"panel": process_panel(machine_id), "can_edit": role_id in EDITOR_ROLES}
    chosen = range_key if range_key is not None and range_key in RANGES else "24h"
    return {"analytics": analytics(machine_id, chosen), "ranges": RANGES, "bucket_label": bucket_label}


def number(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:,.2f}".rstrip("0").rstrip(".") if abs(value) < 1000 else f"{value:,.0f}"


def sparkline(values: list[float | None], low: float | None = None, high: float | None = None) -> dict:
    """SVG polyline points (and the healthy band) for a small trend chart."""
    present = [v for v in values if v is not None]
    if len(present) < 1:
        return {"points": "", "band": None, "width": SPARK_W, "height": SPARK_H}
    lo = min(present + ([low] if low is not None else []))
    hi = max(present + ([high] if high is not None else []))
    span = (hi - lo) or 1.0
    step = SPARK_W / max(1, len(values) - 1)

    def y(v: float) -> float:
        return round(SPARK_H - 2 - (v - lo) / span * (SPARK_H - 4), 1)

    points = " ".join(f"{round(i * step, 1)},{y(v)}" for i, v in enumerate(values) if v is not None)
    band = None
    if low is not None and high is not None:
        band = {"y": y(high), "h": max(1.0, round(y(low) - y(high), 1))}
    return {"points": points, "band": band, "width": SPARK_W, "height": SPARK_H}


def last_reading_times(machine_ids: list[int]) -> dict[int, dict]:
    """machine id -> {"has_key", "last", "ago"} for the Machines table."""
    now = utcnow()
    gettext = bound_gettext()
    states = {}
    rows = db.session.execute(
        select(DeviceKey.machine_id, DeviceKey.key_hash, DeviceKey.last_reading_at).where(
            DeviceKey.machine_id.in_(machine_ids or [0])
        )
    )
    for machine_id, key_hash, last in rows:
        states[machine_id] = {"has_key": key_hash is not None, "last": last, "ago": ago(last, now, gettext)}
    return states


def process_panel(machine_id: int) -> dict:
    now = utcnow()
    latest = rollups.latest(machine_id)
    ranges = alerts.ranges_for(machine_id)
    start = rollups.hour_start(now) - timedelta(hours=23)
    hourly: dict[str, dict[datetime, float]] = {m: {} for m in METRICS}
    sums_and_counts = [c for m in METRICS for c in Rollup.cells(m)[2:]]
    for hour, *cells in db.session.execute(
        select(Rollup.start, *sums_and_counts).where(
            Rollup.machine_id == machine_id, Rollup.period == "h", Rollup.start >= start
        )
    ):
        for metric, total, n in zip(METRICS, cells[::2], cells[1::2], strict=True):
            if n:
                hourly[metric][hour] = total / n
    hours = [start + timedelta(hours=i) for i in range(24)]
    device = db.session.get(DeviceKey, machine_id)
    newest = max((v["ts"] for v in latest.values()), default=None)
    open_alerts = alerts.list_alerts("open", machine_id, limit=20)
    alert_of = {a.metric: a.id for a in open_alerts}
    sensors = []
    for metric in METRICS:
        info = metric_info(metric)
        low, high = ranges[metric]
        current = latest.get(metric)
        value = current["value"] if current else None
        trend = [hourly[metric].get(h) for h in hours]
        sensors.append(
            {
                "key": metric,
                "label": info.label,
                "unit": info.unit,
                "value": number(value),
                "low": number(low),
                "high": number(high),
                "state": _tile_state(value, low, high, metric in alert_of),
                "alert_id": alert_of.get(metric),
                "ago": ago(current["ts"] if current else None, now),
                "spark": sparkline(trend, low, high),
                "trend": [(h, number(v)) for h, v in zip(hours, trend, strict=True) if v is not None],
            }
        )
    return {
        "sensors": sensors,
        "last_ago": ago(newest, now),
        "last_ts": newest,
        "has_key": bool(device and device.key_hash),
        "open_alerts": open_alerts,
        "ranges": ranges,
    }


def _tile_state(value: float | None, low: float, high: float, alert_open: bool) -> str:
    """A sensor tile's state: 'out' (the latest value is out of range), 'alert' (back in range
    but its alert stays open until three readings in a row are healthy), 'ok', or 'none'."""
    if value is not None and not low <= value <= high:
        return "out"
    if alert_open:
        return "alert"
    return "none" if value is None else "ok"


BUCKET_UNITS: dict[str, Literal["hour", "day", "month"]] = {"1h": "hour", "1d": "day", "1mo": "month"}


def _bucket_key(ts: datetime, bucket: str) -> datetime:
    """The local hour, day or month (naive, the barangay's clock) a stored UTC hour belongs to."""
    return local_period_start(ts, BUCKET_UNITS[bucket])


def range_start(span: timedelta, bucket: str) -> datetime:
    """The stored (UTC) instant a range begins: the hour, or the start of the local day."""
    now = utcnow()
    if bucket == "1h":
        return rollups.hour_start(now - span)
    return utc_start_of(to_local(now - span).date())


def analytics(machine_id: int, range_key: str) -> dict:
    """Per-metric figures over the range, plus energy (kWh) and waste fed (kg) per bucket.
    Buckets follow the barangay's clock, so they are summed from the hourly rollups (a UTC
    day's rollup would straddle two local days)."""
    label, span, bucket = RANGES[range_key]
    start = range_start(span, bucket)
    cells: dict[str, dict[datetime, list[float]]] = {}
    columns = [c for m in METRICS for c in Rollup.cells(m)]
    for row_start, *values in db.session.execute(
        select(Rollup.start, *columns).where(
            Rollup.machine_id == machine_id, Rollup.period == "h", Rollup.start >= start
        )
    ):
        key = _bucket_key(row_start, bucket)
        for i, metric in enumerate(METRICS):
            lo, hi, total, n = values[4 * i : 4 * i + 4]
            if not n:
                continue
            cell = cells.setdefault(metric, {}).setdefault(key, [lo, hi, 0.0, 0])
            cell[0], cell[1] = min(cell[0], lo), max(cell[1], hi)
            cell[2] += total
            cell[3] += n
    energy = _energy(machine_id, start, bucket)
    charts = []
    for metric in METRICS:
        info = metric_info(metric)
        points = sorted(cells.get(metric, {}).items())
        rows = [(k, number(c[0]), number(c[2] / c[3]), number(c[1]), c[3]) for k, c in points]
        charts.append(
            {
                "key": metric,
                "label": info.label,
                "unit": info.unit,
                "rows": rows,
                "spark": sparkline([c[2] / c[3] for _k, c in points]),
                "keys": [k for k, _c in points],
                "averages": [c[2] / c[3] for _k, c in points],
            }
        )
    waste = sorted((k, c[2]) for k, c in cells.get("weight_kg", {}).items())
    _draw_axes(charts, bucket)
    return {
        "range": range_key,
        "label": label,
        "bucket": bucket,
        "charts": charts,
        "energy": [(k, number(v)) for k, v in energy],
        "energy_total": number(sum(v for _k, v in energy)),
        "energy_spark": sparkline([v for _k, v in energy]) | {"svg": _bars(energy, bucket, "energy")},
        "waste": [(k, number(v)) for k, v in waste],
        "waste_total": number(sum(v for _k, v in waste)),
        "waste_spark": sparkline([v for _k, v in waste]) | {"svg": _bars(waste, bucket, "waste")},
    }


SHORT_LABELS = {"1h": "HH:00", "1d": "MMM d", "1mo": "LLL"}  # CLDR: months in the reader's language


def _bars(points: list[tuple[datetime, float]], bucket: str, kind: str) -> Markup | None:
    """Energy (kWh) or waste fed (kg) per bucket as bars with axes."""
    if not points:
        return None
    unit = "kWh" if kind == "energy" else "kg"
    return svg_charts.bar_chart(
        [bucket_label(k, bucket) for k, _v in points],
        [v for _k, v in points],
        title=_("Energy produced") if kind == "energy" else _("Waste fed"),
        desc=_("%(unit)s per period; the figures are in the table.", unit=unit),
        y_label=unit,
        unit=unit,
        short_labels=[format_pattern(k, SHORT_LABELS[bucket]) for k, _v in points],
    )


def _draw_axes(charts: list[dict], bucket: str) -> None:
    """Each metric's averages as a line with axes, in place of the bare sparkline."""
    for chart in charts:
        keys, averages = chart["keys"], chart["averages"]
        if not keys:
            continue
        chart["spark"]["svg"] = svg_charts.line_chart(
            [bucket_label(k, bucket) for k in keys],
            [(_("Average"), averages)],
            title=_("%(metric)s, average per period", metric=shown(chart["label"])),
            desc=_("The figures are in the table."),
            y_label=chart["unit"] or "",
            unit=chart["unit"] or "",
            short_labels=[format_pattern(k, SHORT_LABELS[bucket]) for k in keys],
            from_zero=False,
            height=200,
        )


def _energy(machine_id: int, start: datetime, bucket: str) -> list[tuple[datetime, float]]:
    """kWh per bucket: each hour's average power (V x A) times one hour."""
    totals: dict[datetime, float] = {}
    power = Rollup.cells("power_w")
    for hour, total, count in db.session.execute(
        select(Rollup.start, power.sum, power.n).where(
            Rollup.machine_id == machine_id,
            Rollup.period == "h",
            power.n > 0,
            Rollup.start >= start,
        )
    ):
        key = _bucket_key(hour, bucket)
        totals[key] = totals.get(key, 0.0) + total / count / 1000
    return sorted(totals.items())


def bucket_label(ts: datetime, bucket: str) -> str:
    """A local bucket in the reader's language, in the console's one date style:
    "Jan 5, 2026 14:00", "January 2026", "Jan 5, 2026"."""
    if bucket == "1h":
        return format_pattern(ts, f"{DATE_PATTERN} HH:00")
    if bucket == "1mo":
        return format_pattern(ts, MONTH_PATTERN)
    return format_pattern(ts, DATE_PATTERN)
