"""Rules of the machines feature: listing and searching machines, creating and editing them,
and the chemical additives and waste containers recorded per machine.

Search semantics (case-insensitive, docs/machines.md): a machine matches a query when a word of
its name starts with the query (the query may span words: "machine 12"), or when its area's name
contains the query anywhere. Matching by word start lets an index answer it at 120,305 machines;
area names are few, so they are matched in full. Pages come in id order; the type-ahead
(with_total=False) takes the first matches in the alphabetical order of the matching words.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, time
from functools import lru_cache
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import Select, and_, func, literal, or_, select

from ..data.listing import Page, like_contains, like_escape, matches_any
from ..data.rows import get_by_id
from ..errors import Invalid, NotFound
from ..extensions import db
from ..models import Area, Machine, MachineStatus, utcnow
from ..models.machines import CONTAINER_STATUSES, PACKAGES, ChemicalAdditive, MachineTerm, WasteContainer

NAME_MAX = 100  # Machine.name is String(100)
QUERY_MAX = 100


# Reading ------------------------------------------------------------------------------------


def list_areas() -> list[Area]:
    return list(db.session.scalars(select(Area).order_by(Area.id)))


def list_statuses() -> list[MachineStatus]:
    return list(db.session.scalars(select(MachineStatus).order_by(MachineStatus.id)))


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
# same statement (the API: `as_rows` swaps the columns, see machines/api.py).
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


def all_machines() -> list[Machine]:
    """Every machine in id order (the spec's plain list; see docs/performance.md)."""
    return list(db.session.scalars(select(Machine).order_by(Machine.id)))


def get_machine(machine_id: int | str | None) -> Machine:
    """The machine, or NotFound for unknown and malformed ids."""
    machine = get_by_id(Machine, machine_id)
    if machine is None:
        raise NotFound(_("Machine not found."))
    return machine


def first_machine() -> Machine | None:
    return db.session.scalar(select(Machine).order_by(Machine.id).limit(1))


def find_machine(machine_id) -> Machine | None:
    """The machine chosen by a selector, or None (pages fall back to the first machine)."""
    try:
        return get_machine(machine_id)
    except NotFound:
        return None


# Writing machines ---------------------------------------------------------------------------


def _area(area_id: int) -> Area:
    area = get_by_id(Area, area_id)
    if area is None:
        raise Invalid(_("Area not found."), field="areaId")
    return area


def _status(status_id: int | None) -> MachineStatus | None:
    if status_id is None:
        return None
    status = get_by_id(MachineStatus, status_id)
    if status is None:
        raise Invalid(_("Status not found."), field="status")
    return status


def _check_name(name: str) -> str:
    name = " ".join(name.split())
    if len(name) > NAME_MAX:
        raise Invalid(
            _("Machine Name must be at most %(name_max)s characters.", name_max=NAME_MAX), field="name"
        )
    return name


def create_machine(area_id: int, status_id: int | None = None, name: str | None = None) -> Machine:
    """A new machine; without a name it is called 'SIBOL Machine {id}'."""
    area = _area(area_id)
    status = _status(status_id)
    name = _check_name(name or "")
    machine = Machine(name=name or "SIBOL Machine", area_id=area.id, status_id=status.id if status else None)
    db.session.add(machine)
    if not name:
        db.session.flush()  # the generated name carries the id
        machine.name = f"SIBOL Machine {machine.id}"
    db.session.commit()
    return machine


def update_machine(
    machine_id: int | str, *, name: str | None, area_id: int, status_id: int | None
) -> Machine:
    """Replace the editable fields: rename (a blank name keeps the old one), move, and set the
    status (None clears it: the spec's "No Status")."""
    machine = get_machine(machine_id)
    area = _area(area_id)
    status = _status(status_id)
    machine.status_id = status.id if status else None
    name = _check_name(name or "")
    if name:
        machine.name = name
    machine.area_id = area.id
    db.session.commit()
    return machine


# Chemical additives and waste containers -----------------------------------------------------


def list_chemical_additives(machine_id: int | None, q: str | None = None) -> list[ChemicalAdditive]:
    if machine_id is None:
        return []
    return list(db.session.scalars(chemical_additives_query(machine_id, q).limit(500)))


def chemical_additives_query(machine_id: int | None, q: str | None = None) -> Select:
    """A machine's chemical additives matching q, newest first, unpaged (no machine: none)."""
    query = select(ChemicalAdditive).where(ChemicalAdditive.machine_id == (machine_id or 0))
    q = normalise_query(q)
    if q:
        query = query.where(
            matches_any(
                q,
                ChemicalAdditive.chemical_input,
                ChemicalAdditive.stage,
                ChemicalAdditive.person_in_charge,
                ChemicalAdditive.units,
            )
        )
    order = (ChemicalAdditive.added_on.desc(), ChemicalAdditive.added_at.desc(), ChemicalAdditive.id.desc())
    return query.order_by(*order)


def list_waste_containers(machine_id: int | None, q: str | None = None) -> list[WasteContainer]:
    if machine_id is None:
        return []
    return list(db.session.scalars(waste_containers_query(machine_id, q).limit(500)))


def waste_containers_query(machine_id: int | None, q: str | None = None) -> Select:
    """A machine's waste containers matching q, in id order, unpaged (no machine: none)."""
    query = select(WasteContainer).where(WasteContainer.machine_id == (machine_id or 0))
    q = normalise_query(q)
    if q:
        query = query.where(
            matches_any(q, WasteContainer.container_no, WasteContainer.area, WasteContainer.status)
        )
    return query.order_by(WasteContainer.id)


def _package(area: str | None) -> str:
    if area not in PACKAGES:
        raise Invalid(_("Choose an area (Package 1 to Package 4)."), field="area")
    return area


def _date(value: str | None, field: str = "startDate") -> date:
    try:
        return date.fromisoformat((value or "").strip())
    except ValueError:
        raise Invalid(_("Start Date is required (YYYY-MM-DD)."), field=field) from None


def _short(value: str | None, label: str, field: str, limit: int) -> str:
    value = " ".join((value or "").split())
    if len(value) > limit:
        raise Invalid(
            _("%(label)s must be at most %(limit)s characters.", label=label, limit=limit), field=field
        )
    return value


def add_chemical_additive(
    machine_id,
    *,
    area: str | None,
    start_date: str | None,
    chemical_input: str | None = None,
    stage: str | None = None,
    value: str | None = None,
    units: str | None = None,
    person_in_charge: str | None = None,
) -> ChemicalAdditive:
    """Records a chemical added to a machine on the start date (time: now, stored in UTC)."""
    machine = get_machine(machine_id)
    row = ChemicalAdditive(
        machine_id=machine.id,
        area=_package(area),
        added_on=_date(start_date),
        added_at=time(*utcnow().timetuple()[3:6]),
        chemical_input=_short(chemical_input, _("Chemical Input"), "chemicalInput", 100) or "Unspecified",
        stage=_short(stage, _("Stage"), "stage", 50),
        value=_short(value, _("Value"), "value", 20),
        units=_short(units, _("Units"), "units", 20),
        person_in_charge=_short(person_in_charge, _("Person in Charge"), "personInCharge", 100),
    )
    db.session.add(row)
    db.session.commit()
    return row


def add_waste_container(
    machine_id, *, area: str | None, start_date: str | None, status: str | None = None
) -> WasteContainer:
    """A new (Not Full, unless told) container numbered after the machine's last one."""
    machine = get_machine(machine_id)
    status = status or "Not Full"
    if status not in CONTAINER_STATUSES:
        raise Invalid(_("Status must be Full or Not Full."), field="status")
    row = WasteContainer(
        machine_id=machine.id,
        container_no="",
        area=_package(area),
        status=status,
        start_date=_date(start_date),
    )
    db.session.add(row)
    count = db.session.scalar(
        select(func.count()).select_from(WasteContainer).where(WasteContainer.machine_id == machine.id)
    )
    row.container_no = f"WC-{machine.id:03d}-{count:02d}"
    db.session.commit()
    return row
