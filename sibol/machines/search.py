"""Searching machines: one page of them, the type-ahead, and the unpaged set an export writes.

Search semantics (case-insensitive, docs/machines.md): a machine matches a query when a word of
its name starts with the query (the query may span words: "machine 12"), or when its area's name
contains the query anywhere. Matching by word start lets an index answer it at 120,305 machines;
area names are few, so they are matched in full. Pages come in id order; the type-ahead
(with_total=False) takes the first matches in the alphabetical order of the matching words.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Select, Table, and_, func, literal, or_, outerjoin, select

from ..data.listing import Page, like_contains, like_escape
from ..extensions import db
from ..models import Area, Machine, MachineStatus
from ..models.machines import MachineTerm
from ..models.telemetry import DeviceKey

QUERY_MAX = 100


def normalise_query(q: str | None) -> str:
    """The query as searched: trimmed, lowercased, inner spaces collapsed."""
    return " ".join((q or "").lower().split())[:QUERY_MAX]


def _term_prefix(q: str):
    """A condition on MachineTerm.term that a B-tree index answers: term starts with q."""
    if db.engine.dialect.name == "sqlite":
        # SQLite's LIKE ignores case and so cannot use a plain index; terms are lowercase
        # already, so a binary range [q, q + U+10FFFF) is the same prefix test.
        return and_(MachineTerm.term >= q, MachineTerm.term < q + "\U0010ffff")
    # MariaDB/MySQL: LIKE 'q%' uses the index, and the *_ci collation ignores case.
    return MachineTerm.term.like(like_escape(q) + "%", escape="\\")


def _matching_area_ids(q: str) -> list[int]:
    like = func.lower(Area.name).like(like_contains(q, lower=False), escape="\\")
    return list(db.session.scalars(select(Area.id).where(like)))


def _named(q: str) -> Select:
    return select(MachineTerm.machine_id).where(_term_prefix(q))


# A page's rows as ORM objects (the pages), or as plain rows of another SELECT built from the
# same statement (the API: `as_rows` swaps the columns, see listing_columns below).
AsRows = Callable[[Select], Select] | None


def _fetch(statement: Select, as_rows: AsRows) -> list[Any]:
    if as_rows is None:
        return list(db.session.scalars(statement))
    return list(db.session.execute(as_rows(statement)))


def _first_matches(q: str, page: int, per_page: int, as_rows: AsRows = None) -> list[Any]:
    """Type-ahead: the first matches in the alphabetical order of their matching words, straight
    off the term index (shared < len(q) keeps one term per machine)."""
    ids = list(
        db.session.scalars(
            select(MachineTerm.machine_id)
            .where(_term_prefix(q), MachineTerm.shared < len(q))
            .order_by(MachineTerm.term, MachineTerm.machine_id)
            .limit(per_page)
            .offset((page - 1) * per_page)
        )
    )
    matches = _fetch(select(Machine).where(Machine.id.in_(ids)), as_rows) if ids else []
    found = {m.machine_id if as_rows else m.id: m for m in matches}
    return [found[i] for i in ids if i in found]


def _search_by_name(q: str, page: int, per_page: int, as_rows: AsRows = None) -> tuple[list[Any], int]:
    """Machines whose name has a word starting with q (no area matched), in id order.

    The total counts term rows with shared < len(q): one per matching machine, no DISTINCT, an
    index range. The page comes either from walking machines in id order and probing their terms
    (cheap when matches are dense and the page is early) or from the set of matching ids (cheap
    when they are few); the cost model is ~5 probes per id-order step against ~1 per matching id.
    """
    total = (
        db.session.scalar(
            select(func.count()).select_from(MachineTerm).where(_term_prefix(q), MachineTerm.shared < len(q))
        )
        or 0
    )
    if total == 0:
        return [], 0
    offset = (page - 1) * per_page
    rows = select(Machine).order_by(Machine.id).limit(per_page).offset(offset)
    highest = db.session.scalar(select(func.max(Machine.id))) or 0
    if 5 * (offset + per_page) * highest / total < total:
        # A scalar subquery with LIMIT 1, not EXISTS: MariaDB turns EXISTS into a semi-join and
        # materialises every match first, which is what this plan avoids.
        probe = (
            select(literal(1))
            .where(MachineTerm.machine_id == Machine.id, _term_prefix(q))
            .limit(1)
            .scalar_subquery()
        )
        rows = rows.where(probe == 1)
    else:
        rows = rows.where(Machine.id.in_(_named(q)))
    return _fetch(rows, as_rows), total


def search_machines(
    q: str | None = None,
    page: int = 1,
    per_page: int = 10,
    *,
    with_total: bool = True,
    as_rows: AsRows = None,
) -> Page:
    """One page of machines in id order, filtered by `q` (see the module docstring). With
    `as_rows`, the page holds the rows of as_rows(statement) instead of Machine objects."""
    q = normalise_query(q)
    offset = (page - 1) * per_page
    area_ids = _matching_area_ids(q) if q else []
    if q and not area_ids and not with_total:
        rows, total = _first_matches(q, page, per_page, as_rows), None
    elif q and not area_ids:
        rows, total = _search_by_name(q, page, per_page, as_rows)
    elif not q:
        # The unfiltered page, the common one: its statements do not depend on the request and
        # are built once; only LIMIT/OFFSET, bound parameters, change.
        rows_query, count_query = _unfiltered(as_rows)
        rows = list(db.session.execute(rows_query.limit(per_page).offset(offset)))
        if as_rows is None:
            rows = [row[0] for row in rows]
        total = _total(rows, offset, per_page, count_query) if with_total else None
    else:
        rows_query = select(Machine).order_by(Machine.id)
        count_query = select(func.count()).select_from(Machine)
        condition = _matches(q, area_ids)
        rows_query, count_query = rows_query.where(condition), count_query.where(condition)
        rows = _fetch(rows_query.limit(per_page).offset(offset), as_rows)
        total = _total(rows, offset, per_page, count_query) if with_total else None
    if total is None:
        total = offset + len(rows)
    return Page(rows=rows, total=total, page=page, per_page=per_page)


def _total(rows: list, offset: int, per_page: int, count_query: Select) -> int:
    """The number of matching machines. A page that is not full and not past the end is the
    last one, so the total is known without a COUNT (the first page of a barangay with
    fewer machines than per_page, the common case, runs one statement fewer)."""
    if len(rows) < per_page and (rows or offset == 0):
        return offset + len(rows)
    return db.session.scalar(count_query) or 0


@lru_cache(maxsize=8)
def _unfiltered(as_rows: AsRows) -> tuple[Select, Select]:
    rows_query = select(Machine).order_by(Machine.id)
    return (as_rows(rows_query) if as_rows else rows_query), select(func.count()).select_from(Machine)


def _matches(q: str, area_ids: list[int]):
    """The condition every machines search applies: a name word starts with q, or the area matches."""
    named = Machine.id.in_(_named(q))
    return or_(named, Machine.area_id.in_(area_ids)) if area_ids else named


def machines_query(q: str | None = None) -> Select:
    """All machines matching q (the set search_machines pages through), in id order, unpaged."""
    q = normalise_query(q)
    query = select(Machine).order_by(Machine.id)
    return query.where(_matches(q, _matching_area_ids(q))) if q else query


def plain_list() -> Select:
    """Every machine in id order as plain rows of machine_json's fields (machine_row_json): the
    spec's plain list, read by the cursor while it streams (see docs/performance.md)."""
    area, status = cast(Table, Area.__table__), cast(Table, MachineStatus.__table__)
    # The area and status through their tables, as listing_columns does: the Machine entity's
    # barangay criteria stay in the WHERE clause and the outer joins stay outer.
    return (
        select(
            Machine.id,
            Machine.name,
            Machine.area_id,
            area.c.name,
            Machine.status_id,
            status.c.name,
        )
        .select_from(
            outerjoin(Machine, area, Machine.area_id == area.c.id).outerjoin(
                status, Machine.status_id == status.c.id
            )
        )
        .order_by(Machine.id)
    )


def listing_columns(statement: Select) -> Select:
    """A page of machines as plain rows: machine_json's fields and the device's last
    reading in one SELECT, instead of Machine objects plus a second query for the devices."""
    # The machine's own area, status and device key through their tables: the machines are
    # scoped to the barangay (the Machine entity's loader criteria), and an ORM entity here would
    # add its criteria to the WHERE clause, turning these outer joins into inner ones.
    area, status, device = (
        cast(Table, Area.__table__),
        cast(Table, MachineStatus.__table__),
        cast(Table, DeviceKey.__table__),
    )
    return statement.with_only_columns(
        Machine.id.label("machine_id"),
        Machine.name,
        Machine.area_id,
        area.c.name.label("area_name"),
        Machine.status_id,
        status.c.name.label("status_name"),
        device.c.last_reading_at,
        maintain_column_froms=False,
    ).select_from(
        outerjoin(Machine, area, Machine.area_id == area.c.id)
        .outerjoin(status, Machine.status_id == status.c.id)
        .outerjoin(device, device.c.machine_id == Machine.id)
    )
