"""A barangay's areas (puroks): listed, added, renamed, retired and restored by its Admin.

An area belongs to one barangay (the tenancy scope stamps and limits it), so an Admin sees and
changes only their barangay's areas; another barangay's area is simply not found (404). A
retired area keeps everything that names it (its machines stay in it, old schedules keep their
chips) but takes nothing new: no machine is added to it or moved into it, and no collection
schedule gets it as a new chip. Restoring it opens it again. Names are unique within a
barangay, ignoring case, retired areas included (restore the old one instead of a twin).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from ..data.rows import get_by_id
from ..errors import Conflict, Invalid, NotFound
from ..extensions import db
from ..models import Area, Barangay, Machine, utcnow

NAME_MAX = 100  # Area.name is String(100)
STARTER_AREA = "Purok 1"  # the area a new barangay starts with, to rename


@dataclass
class AreaRow:
    area: Area
    machines: int
    barangay: str


def list_areas(*, include_retired: bool = False) -> list[Area]:
    """The areas new work may use (for every add form and GET /api/machines/areas), by id; with
    include_retired, the retired ones too."""
    query = select(Area).order_by(Area.id)
    if not include_retired:
        query = query.where(Area.retired_at.is_(None))
    return list(db.session.scalars(query))


def area_rows() -> list[AreaRow]:
    """The management list: every area (active first, then retired), with its machine count and
    barangay's name (a City Admin viewing every barangay sees them all)."""
    machines = select(Machine.area_id, func.count(Machine.id).label("n")).group_by(Machine.area_id).subquery()
    rows = db.session.execute(
        select(Area, func.coalesce(machines.c.n, 0), Barangay.name)
        .join(Barangay, Barangay.id == Area.barangay_id)
        .outerjoin(machines, machines.c.area_id == Area.id)
        .order_by(Area.retired_at.is_not(None), func.lower(Area.name), Area.id)
    ).all()
    return [AreaRow(area, int(count), name) for area, count, name in rows]


def get_area(area_id: object) -> Area:
    """The area (of the caller's barangay), or NotFound for unknown, foreign and malformed ids."""
    area = get_by_id(Area, area_id)
    if area is None:
        raise NotFound(_("Area not found."))
    return area


def area_for_new_work(area_id: object, *, current: int | None = None, field: str = "areaId") -> Area:
    """The area a machine is added to or moved into: Invalid naming `field` when it is unknown or
    retired. `current` is the area the machine is in already, which it may keep when retired."""
    area = get_by_id(Area, area_id)
    if area is None:
        raise Invalid(_("Area not found."), field=field)
    if area.retired_at is not None and area.id != current:
        raise Invalid(_("%(name)s is retired: choose another area.", name=area.name), field=field)
    return area


def retired_names(names: Iterable[str]) -> list[str]:
    """Of these area names (a schedule's chips), the ones that name a retired area, ignoring case."""
    wanted = {name.lower(): name for name in names}
    if not wanted:
        return []
    found = db.session.scalars(
        select(func.lower(Area.name)).where(
            Area.retired_at.is_not(None), func.lower(Area.name).in_(list(wanted))
        )
    )
    return [wanted[name] for name in found if name in wanted]


def clean_name(raw: object) -> str:
    """An area's name: text, spaces collapsed, 1 to 100 characters."""
    if raw is not None and not isinstance(raw, str):
        raise Invalid(_("Area name must be text."), field="name")
    name = " ".join((raw or "").split())
    if not name:
        raise Invalid(_("Area name is required."), field="name")
    if len(name) > NAME_MAX:
        raise Invalid(_("Area name must be at most %(n)s characters.", n=NAME_MAX), field="name")
    return name


def _check_free(area: Area) -> None:
    """Refuse a name another area of the same barangay has (any case), after the flush that gave
    the area its barangay; the unique index refuses the same spelling in a race."""
    taken = db.session.scalar(
        select(Area.id).where(
            Area.barangay_id == area.barangay_id,
            func.lower(Area.name) == area.name.lower(),
            Area.id != area.id,
        )
    )
    if taken is not None:
        raise Conflict(_("An area named %(name)s already exists.", name=area.name), field="name")


def _save(area: Area) -> Area:
    name = area.name  # the rollback below expires it
    try:
        db.session.flush()  # stamps a new area's barangay (or refuses: NeedsBarangay)
        _check_free(area)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(_("An area named %(name)s already exists.", name=name), field="name") from None
    except (Invalid, Conflict):
        db.session.rollback()
        raise
    return area


def create_area(raw_name: object) -> Area:
    """A new area of the caller's barangay."""
    area = Area(name=clean_name(raw_name))
    db.session.add(area)
    return _save(area)


def update_area(area_id: object, *, name: object = None, retired: object = None) -> Area:
    """Rename and/or retire (True) or restore (False) an area; None leaves that part alone."""
    area = get_area(area_id)
    if retired is not None and not isinstance(retired, bool):
        raise Invalid(_("retired must be true or false."), field="retired")
    if name is not None:
        area.name = clean_name(name)
    if retired is True and area.retired_at is None:
        area.retired_at = utcnow()
    elif retired is False:
        area.retired_at = None
    return _save(area)


def add_starter_area(barangay_id: int) -> Area:
    """The one area a new barangay starts with (the caller commits with the barangay)."""
    area = Area(name=STARTER_AREA, barangay_id=barangay_id)
    db.session.add(area)
    return area
