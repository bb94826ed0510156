"""The maintenance lists: the tab, search and filters of a query string, and one page of requests."""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta

from flask_babel import gettext as _
from sqlalchemy import Select, String, UnaryExpression, cast, func, or_, select
from sqlalchemy.orm import aliased

from ..data.listing import like_contains
from ..errors import Invalid
from ..extensions import db
from ..i18n.localtime import today
from ..models import Account, MaintenanceRequest, MaintenanceStatus
from .service import DEFAULT_TAB, FILTER_PRIORITIES, FILTER_STATUSES, PERIODS, TABS

MAX_QUERY = 100


@dataclass
class ListQuery:
    tab: str = DEFAULT_TAB
    q: str = ""
    statuses: list[str] = field(default_factory=list)
    priorities: list[str] = field(default_factory=list)
    periods: list[str] = field(default_factory=list)

    @property
    def has_filters(self) -> bool:
        return bool(self.statuses or self.priorities or self.periods)


def _choices(values: Iterable[str], allowed: list[str], name: str, label: str, strict: bool) -> list[str]:
    chosen: list[str] = []
    for raw in values:
        for part in str(raw).split(","):
            value = part.strip().lower().replace("-", "")
            if not value:
                continue
            if value not in allowed:
                if strict:
                    raise Invalid(
                        _("%(label)s must be one of: %(value)s.", label=label, value=", ".join(allowed)),
                        field=name,
                    )
                continue
            if value not in chosen:
                chosen.append(value)
    return [v for v in allowed if v in chosen]  # the dialog's order, each once


def parse_list_query(args: Mapping, *, strict: bool = False) -> ListQuery:
    """Tab, search and filters from a query string (a MultiDict). Strict: unknown values are 400."""
    getlist = args.getlist if hasattr(args, "getlist") else (lambda k: [args[k]] if k in args else [])
    tab = (args.get("tab") or DEFAULT_TAB).strip().lower()
    if tab not in TABS:
        if strict:
            raise Invalid(_("tab must be request, pending or complete."), field="tab")
        tab = DEFAULT_TAB
    q = (args.get("q") or "").strip()
    if len(q) > MAX_QUERY:
        if strict:
            raise Invalid(_("q must be at most %(max_query)s characters.", max_query=MAX_QUERY), field="q")
        q = q[:MAX_QUERY]
    return ListQuery(
        tab=tab,
        q=q,
        statuses=_choices(getlist("status"), FILTER_STATUSES, "status", "status", strict),
        priorities=_choices(getlist("priority"), FILTER_PRIORITIES, "priority", "priority", strict),
        periods=_choices(getlist("date"), list(PERIODS), "date", "date", strict),
    )


def list_requests(
    query: ListQuery, *, page: int = 1, per_page: int = 10
) -> tuple[list[MaintenanceRequest], int]:
    """One page of a tab's requests with the search and filters applied, and the total."""
    stmt = requests_query(query)
    total = db.session.scalar(select(func.count()).select_from(stmt.order_by(None).subquery())) or 0
    offset = (page - 1) * per_page
    if offset >= total:  # past the end (the driver would choke on an absurd offset)
        return [], total
    rows = db.session.scalars(stmt.offset(offset).limit(per_page)).unique()
    return list(rows), total


def requests_query(query: ListQuery) -> Select:
    """A tab's requests with the search and filters applied, in the tab's order, unpaged."""
    MR = MaintenanceRequest
    stmt = select(MR)
    order: tuple[UnaryExpression[typing.Any], ...]
    if query.tab == "pending":
        stmt = stmt.where(MR.status == MaintenanceStatus.ONGOING.value)
        order = (MR.due_date.asc(), MR.id.asc())
    elif query.tab == "complete":
        stmt = stmt.where(
            MR.status.in_([MaintenanceStatus.COMPLETED.value, MaintenanceStatus.CANCELED.value])
        )
        order = (MR.updated_at.desc(), MR.id.desc())
    else:
        order = (MR.request_date.desc(), MR.id.desc())
    if query.statuses:
        stmt = stmt.where(MR.status.in_(query.statuses))
    if query.priorities:
        stmt = stmt.where(MR.priority.in_(query.priorities))
    if query.periods:
        days = max(PERIODS[p][1] for p in query.periods)  # the choices overlap: the widest wins
        stmt = stmt.where(MR.request_date >= today() - timedelta(days=days - 1))
    if query.q:
        assignee = aliased(Account)
        pattern = like_contains(query.q)
        stmt = stmt.outerjoin(assignee, MR.assignee_id == assignee.id).where(
            or_(
                cast(MR.request_number, String).like(pattern, escape="\\"),
                func.lower(MR.issue).like(pattern, escape="\\"),
                func.lower(func.coalesce(MR.contact_phone, "")).like(pattern, escape="\\"),
                func.lower(assignee.first_name + " " + assignee.last_name).like(pattern, escape="\\"),
                func.lower(func.coalesce(assignee.email, "")).like(pattern, escape="\\"),
                func.lower(assignee.username).like(pattern, escape="\\"),
            )
        )
    return stmt.order_by(*order)
