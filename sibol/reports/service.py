"""The monthly report's figures, each beside the month before.

Months are calendar months in the barangay's zone (SIBOL_TIMEZONE). Date columns (collections,
credits, maintenance dates) already hold local days; instants (claims, alerts, machine rollups)
are stored as naive UTC and compared with the UTC instants at which the local month begins and
ends. Waste and energy totals come from the impact module (sibol/impact), as on the dashboard, the
city dashboard and the public pages, so every page agrees for the same month.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from flask_babel import format_date
from flask_babel import gettext as _
from sqlalchemy import func, select

from ..dashboard import service as dashboard
from ..errors import Invalid
from ..extensions import db
from ..i18n import localtime
from ..impact import service as impact
from ..models import (
    ClaimState,
    MaintenanceEvent,
    MaintenanceEventKind,
    MaintenanceRequest,
    MaintenanceStatus,
    MemberCollection,
    RewardClaim,
)
from ..models.telemetry import Alert, Rollup
from ..telemetry import service as telemetry
from ..telemetry.service import metric_info

MONTH_RE = re.compile(r"^(\d{4})-(\d{2})$")
FIRST_YEAR = 2000


@dataclass(frozen=True)
class Month:
    """One calendar month of the barangay: its first day, and the next month's."""

    start: date
    end: date

    @classmethod
    def of(cls, day: date) -> Month:
        return cls(*localtime.month_bounds(day))

    @property
    def previous(self) -> Month:
        last = date(self.start.year - (self.start.month == 1), (self.start.month - 2) % 12 + 1, 1)
        return Month.of(last)

    @property
    def key(self) -> str:
        return f"{self.start:%Y-%m}"

    @property
    def label(self) -> str:
        return format_date(self.start, "MMMM yyyy")

    @property
    def utc_start(self) -> datetime:
        return localtime.utc_start_of(self.start)

    @property
    def utc_end(self) -> datetime:
        return localtime.utc_start_of(self.end)


def parse_month(raw: str | None) -> Month:
    """YYYY-MM (2000-01 up to the current month of the barangay); missing or blank: the current
    month. Raises Invalid naming `month` otherwise."""
    current = Month.of(localtime.today())
    if raw is None or not raw.strip():
        return current
    match = MONTH_RE.match(raw.strip())
    if not match or not 1 <= int(match.group(2)) <= 12 or int(match.group(1)) < FIRST_YEAR:
        raise Invalid(_("Month must be a month in the form YYYY-MM, for example 2026-03."), field="month")
    month = Month.of(date(int(match.group(1)), int(match.group(2)), 1))
    if month.start > current.start:
        raise Invalid(
            _("Month cannot be after the current month (%(month)s).", month=current.key), field="month"
        )
    return month


def compare(value: float | int | None, previous: float | int | None) -> dict:
    """{value, previous, change, percent}: change is value − previous (None when either is
    missing); percent is that change over previous, None when previous is 0 or missing."""
    change = None if value is None or previous is None else round(value - previous, 3)
    percent = None
    if change is not None and previous:
        percent = round(change / previous * 100, 1)
    return {"value": value, "previous": previous, "change": change, "percent": percent}


# Waste and energy: the impact module's figures ----------------------------------------------


def _impact(month: Month) -> impact.Impact:
    return impact.for_scope(impact.Period(month.start, month.end))


def _waste(month: Month, machines: bool) -> dict:
    if machines:
        return telemetry.machine_waste_between(month.utc_start, month.utc_end, limit=None)
    return dashboard.waste_between(month.start, month.end, limit=None)


def waste(month: Month) -> dict:
    """Per area (street, or machine where machines weighed the waste) and in total, in kg; the
    total is the impact module's (sibol/impact), the figure every page shows."""
    before = month.previous
    figures = _impact(month), _impact(before)
    machines = any(f.waste_source in ("machines", "mixed") for f in figures)
    now, then = _waste(month, machines), _waste(before, machines)
    now_kg = dict(zip(now["streets"], now["kg"], strict=True))
    then_kg = dict(zip(then["streets"], then["kg"], strict=True))
    names = list(now["streets"]) + [n for n in then["streets"] if n not in now_kg]
    return {
        "by": "machine" if machines else "street",
        "areas": [{"name": n, **compare(now_kg.get(n, 0), then_kg.get(n, 0))} for n in names],
        "total": compare(round(figures[0].waste_kg, 3), round(figures[1].waste_kg, 3)),
    }


def energy(month: Month) -> dict:
    """kWh of the month and the month before (the impact module's figures, as the dashboard
    shows them): machines' power readings where they report, else the typed readings."""
    now, then = _impact(month), _impact(month.previous)
    sources = {now.energy_source, then.energy_source} - {"none"}
    source = sources.pop() if len(sources) == 1 else ("mixed" if sources else "none")
    return {
        "unit": "kWh",
        "source": source,
        **compare(dashboard.energy_of_month(month.start), dashboard.energy_of_month(month.previous.start)),
    }


# Points and households --------------------------------------------------------------------------


def _points_awarded(month: Month) -> int:
    return int(
        db.session.scalar(
            select(func.coalesce(func.sum(MemberCollection.points), 0)).where(
                MemberCollection.collected_on >= month.start, MemberCollection.collected_on < month.end
            )
        )
        or 0
    )


def _points_claimed(month: Month) -> int:
    """Points spent by claims made in the month and not cancelled (open or handed over)."""
    return int(
        db.session.scalar(
            select(func.coalesce(func.sum(RewardClaim.points_spent), 0)).where(
                RewardClaim.claimed_at >= month.utc_start,
                RewardClaim.claimed_at < month.utc_end,
                RewardClaim.state != ClaimState.CANCELLED,
            )
        )
        or 0
    )


def _households(month: Month) -> int:
    """Distinct households credited with a collection in the month."""
    return int(
        db.session.scalar(
            select(func.count(func.distinct(MemberCollection.member_id))).where(
                MemberCollection.collected_on >= month.start, MemberCollection.collected_on < month.end
            )
        )
        or 0
    )


# Maintenance ----------------------------------------------------------------------------------


def _opened(month: Month) -> int:
    return int(
        db.session.scalar(
            select(func.count(MaintenanceRequest.id)).where(
                MaintenanceRequest.request_date >= month.start, MaintenanceRequest.request_date < month.end
            )
        )
        or 0
    )


def _closed(month: Month) -> tuple[int, float | None]:
    """(requests completed in the month, their average hours from request to completion). The
    time runs from the request's creation to its completion event; a request recorded without
    events (sample rows) counts whole days from its request date to its completion date."""
    rows = db.session.execute(
        select(
            MaintenanceRequest.created_at,
            MaintenanceRequest.request_date,
            MaintenanceRequest.date_completed,
            func.max(MaintenanceEvent.created_at),
        )
        .outerjoin(
            MaintenanceEvent,
            (MaintenanceEvent.request_id == MaintenanceRequest.id)
            & (MaintenanceEvent.kind == MaintenanceEventKind.COMPLETED),
        )
        .where(
            MaintenanceRequest.status == MaintenanceStatus.COMPLETED,
            MaintenanceRequest.date_completed >= month.start,
            MaintenanceRequest.date_completed < month.end,
        )
        .group_by(
            MaintenanceRequest.id,
            MaintenanceRequest.created_at,
            MaintenanceRequest.request_date,
            MaintenanceRequest.date_completed,
        )
    ).all()
    hours = []
    for created_at, request_date, completed_on, completed_at in rows:
        if completed_at is not None and created_at is not None:
            hours.append(max((completed_at - created_at).total_seconds(), 0) / 3600)
        else:
            hours.append(max((completed_on - request_date).days, 0) * 24.0)
    return len(rows), (round(sum(hours) / len(hours), 1) if hours else None)


def maintenance(month: Month) -> dict:
    closed, hours = _closed(month)
    closed_before, hours_before = _closed(month.previous)
    return {
        "opened": compare(_opened(month), _opened(month.previous)),
        "closed": compare(closed, closed_before),
        "hoursToClose": compare(hours, hours_before),
    }


# Alerts ---------------------------------------------------------------------------------------


def _metric_label(key: str) -> str:
    try:
        return metric_info(key).label
    except KeyError:
        return key


def alerts(month: Month) -> dict | None:
    """Alerts opened per metric; None when no machine has ever reported or raised one."""
    if (
        db.session.scalar(select(Alert.id).limit(1)) is None
        and db.session.scalar(select(Rollup.machine_id).limit(1)) is None
    ):
        return None

    def counts(m: Month) -> dict[str, int]:
        return {
            metric: int(n)
            for metric, n in db.session.execute(
                select(Alert.metric, func.count(Alert.id))
                .where(Alert.opened_at >= m.utc_start, Alert.opened_at < m.utc_end)
                .group_by(Alert.metric)
            )
        }

    now, then = counts(month), counts(month.previous)
    metrics = sorted(set(now) | set(then))
    return {
        "byMetric": [
            {"metric": m, "label": _metric_label(m), **compare(now.get(m, 0), then.get(m, 0))}
            for m in metrics
        ],
        "total": compare(sum(now.values()), sum(then.values())),
    }


def monthly_report(month: Month) -> dict:
    """Every figure of the report for `month` and the month before (JSON-ready)."""
    before = month.previous
    return {
        "month": month.key,
        "label": month.label,
        "previousMonth": before.key,
        "previousLabel": before.label,
        "timeZone": localtime.time_zone_name(),
        "waste": waste(month),
        "energy": energy(month),
        "points": {
            "awarded": compare(_points_awarded(month), _points_awarded(before)),
            "claimed": compare(_points_claimed(month), _points_claimed(before)),
        },
        "households": compare(_households(month), _households(before)),
        "maintenance": maintenance(month),
        "alerts": alerts(month),
    }
