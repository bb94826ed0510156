"""Collection schedules in the spec's client's database-style names: read, add, change, delete.

The client's household screen reads and writes a schedule as
  Schedule_id, Account_id (the collector's account, an operator), Collector (a name),
  Contact (a Philippine mobile, 09XXXXXXXXX), Area (area ids from /api/areas; also taken as one
  id, a comma-joined text of ids, a name or a list of names), sched_stat_id (1 Collecting,
  2 Pending, 3 Collected, 4 Cancelled), Date_of_collection (YYYY-MM-DD),
an area as Area_id, Area_Name and an operator as Account_id, Username. This module turns those
into the household service's values, with the same rules (sibol/inputs/rules.py) plus what the
client's fields mean (a known operator, known areas, a mobile number), and refuses bad values
naming the client's field. Writes go through household/service.py, one transaction each.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from ..errors import Invalid
from ..extensions import db
from ..inputs import rules
from ..inputs.fields import Errors
from ..models import (
    Account,
    AccountStatus,
    Area,
    CollectionArea,
    CollectionSchedule,
    CollectionStatus,
    RoleId,
)
from . import service

# sched_stat_id <-> our status names.
STATUS_IDS = {
    CollectionStatus.COLLECTING: 1,
    CollectionStatus.PENDING: 2,
    CollectionStatus.COLLECTED: 3,
    CollectionStatus.CANCELLED: 4,
}
STATUS_BY_ID = {number: status for status, number in STATUS_IDS.items()}

# 09XXXXXXXXX, also written +63 9XX XXX XXXX or 639XXXXXXXXX, with spaces, dots, dashes or
# brackets between the digits.
MOBILE_RE = re.compile(r"^(?:\+?63|0)(9\d{9})$")
MOBILE_SEPARATORS = re.compile(r"[\s().-]")

# Our own names of a schedule's fields -> the client's, for a refusal the service itself raises.
CLIENT_FIELDS = {
    "maintenancePerson": "Collector",
    "collectorContact": "Contact",
    "areas": "Area",
    "dateOfCollection": "Date_of_collection",
    "status": "sched_stat_id",
}


def mobile(value: str | None) -> str | None:
    """A Philippine mobile number as 09XXXXXXXXX, or None when the text is not one."""
    if not isinstance(value, str):
        return None
    found = MOBILE_RE.match(MOBILE_SEPARATORS.sub("", value))
    return "0" + found.group(1) if found else None


# Reading ----------------------------------------------------------------------------------------


def area_ids_by_name() -> dict[str, int]:
    """The barangay's areas, lower-cased name -> id (a row's Area is its areas' ids)."""
    return {name.lower(): area_id for area_id, name in db.session.execute(select(Area.id, Area.name))}


def areas() -> list[tuple[Area, int]]:
    """(area, how many schedules cover it by name, ignoring case), by name A to Z: what the
    client's area picker offers (open areas only: a retired one takes no new schedule)."""
    key = func.lower(CollectionArea.name)
    statement = select(key, func.count(func.distinct(CollectionArea.schedule_id))).group_by(key)
    covered: dict[str, int] = {name: count for name, count in db.session.execute(statement)}
    rows = db.session.scalars(select(Area).where(Area.retired_at.is_(None)).order_by(Area.name, Area.id))
    return [(area, covered.get(area.name.lower(), 0)) for area in rows]


def _operators_query():
    return select(Account).where(
        Account.role_id == int(RoleId.OPERATOR),
        Account.status == AccountStatus.ACTIVE,
        Account.is_enabled.is_(True),
    )


@dataclass
class Operator:
    account: Account
    contact: str | None  # the profile's number, else the contact of their latest schedule
    schedules: int


def operators() -> list[Operator]:
    """The accounts that can collect (active operators of the barangay), by name A to Z."""
    accounts = list(db.session.scalars(_operators_query()))
    ids = [a.id for a in accounts]
    counts: dict[int, int] = {}
    latest: dict[int, str] = {}
    if ids:
        counted = (
            select(CollectionSchedule.collector_id, func.count())
            .where(CollectionSchedule.collector_id.in_(ids))
            .group_by(CollectionSchedule.collector_id)
        )
        counts = {account_id: count for account_id, count in db.session.execute(counted) if account_id}
        newest = (
            select(func.max(CollectionSchedule.id))
            .where(CollectionSchedule.collector_id.in_(ids))
            .group_by(CollectionSchedule.collector_id)
        )
        contacts = select(CollectionSchedule.collector_id, CollectionSchedule.collector_contact).where(
            CollectionSchedule.id.in_(newest)
        )
        latest = {account_id: contact for account_id, contact in db.session.execute(contacts) if account_id}
    found = [Operator(a, a.contact_number or latest.get(a.id), counts.get(a.id, 0)) for a in accounts]
    return sorted(found, key=lambda o: (o.account.full_name.lower(), o.account.id))


# Writing ----------------------------------------------------------------------------------------


def _whole_id(value: Any) -> int | None:
    """An id sent as a number or as digits; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 < value < 2**63 else None
    if isinstance(value, float) and value.is_integer():
        return _whole_id(int(value))
    if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) <= 18:
        return _whole_id(int(value.strip()))
    return None


def _operator(errors: Errors, value: Any) -> Account | None:
    if errors.missing(value, "Account_id", _("Operator")):
        return None
    account_id = _whole_id(value)
    found = db.session.scalar(_operators_query().where(Account.id == account_id)) if account_id else None
    if found is None:
        errors.add("Account_id", _("Account_id must be the account of an operator (see /api/operators)."))
    return found


def _contact(errors: Errors, value: Any) -> str:
    if errors.missing(value, "Contact", _("Contact")):
        return ""
    number = mobile(value)
    if number is None:
        errors.add("Contact", _("Contact must be a Philippine mobile number such as 09171234567."))
        return ""
    return number


def _area_items(value: Any) -> list | None:
    """The Area value as a list of ids and names; None when it is none of the shapes taken."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return [value]
    if isinstance(value, str):
        parts = [part.strip() for part in value.split(",")]
        # "3,5" is a list of ids; a text with a comma that is not all ids is one name.
        if len(parts) > 1 and not all(p.isdecimal() for p in parts if p):
            return [value]
        return parts
    if isinstance(value, list | tuple):
        return list(value)
    return None


def _areas(errors: Errors, value: Any, kept: Sequence[str] = ()) -> list[str]:
    """The names of the areas the Area value names, each a known area of the barangay or one of
    `kept` (the changed schedule's own chips, which a GET shows by name when they are not areas)."""
    if errors.missing(value, "Area", _("Area")):
        return []
    items = _area_items(value)
    if items is None or len(items) > 100:
        errors.add("Area", _("Area must be an area id, a list of area ids, or area names (see /api/areas)."))
        return []
    by_id = {area_id: name for area_id, name in db.session.execute(select(Area.id, Area.name))}
    by_name = {name.lower(): name for name in (*kept, *by_id.values())}
    names: list[str] = []
    for item in items:
        if isinstance(item, str) and not item.strip():
            continue
        area_id = _whole_id(item)
        name = by_id.get(area_id) if area_id is not None else None
        if name is None and isinstance(item, str) and area_id is None:
            name = by_name.get(" ".join(item.split()).lower())
        if name is None:
            errors.add(
                "Area", _("Area %(value)s is not an area of this barangay (see /api/areas).", value=item)
            )
            return []
        names.append(name)
    return rules.area_list(errors, names, "Area", _("Area"))


def _status(errors: Errors, value: Any) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None  # Pending when a schedule is added; unchanged when one is changed
    found = STATUS_BY_ID.get(_whole_id(value) or 0)
    if found is None:
        errors.add(
            "sched_stat_id",
            _("sched_stat_id must be 1 (Collecting), 2 (Pending), 3 (Collected) or 4 (Cancelled)."),
        )
        return None
    return found.value


def _values(body: dict, current: CollectionSchedule | None = None) -> tuple[dict, Account | None]:
    """The household service's values for the fields the body holds (all of them for a new
    schedule; for a change of `current`, those sent) and the operator chosen; Invalid names every
    bad field by the client's name. A change may send back a value exactly as a GET shows it for
    that schedule (no operator, a contact that is not a mobile, an area typed on our own form that
    is not an area of the barangay): what the console shows is saved unchanged."""
    errors = Errors()
    values: dict[str, Any] = {}
    operator = None

    def has(name: str) -> bool:
        return current is None or name in body

    def as_shown(name: str, shown: Any) -> bool:
        return current is not None and body.get(name) == shown

    if has("Account_id") and not as_shown("Account_id", current and current.collector_id):
        operator = _operator(errors, body.get("Account_id"))
        if operator is not None:
            values["maintenancePerson"] = operator.full_name[:100]
    if "Collector" in body:
        values["maintenancePerson"] = rules.text(errors, body.get("Collector"), "Collector", _("Collector"))
    if has("Contact"):
        stored = current.collector_contact if current is not None else ""
        if not as_shown("Contact", mobile(stored) or stored):
            values["collectorContact"] = _contact(errors, body.get("Contact"))
    if has("Area"):
        values["areas"] = _areas(errors, body.get("Area"), current.area_names if current is not None else [])
    if has("Date_of_collection"):
        day = rules.day(errors, body.get("Date_of_collection"), "Date_of_collection", _("Date of Collection"))
        values["dateOfCollection"] = day.isoformat() if day else None
    status = _status(errors, body.get("sched_stat_id"))
    if status is not None:
        values["status"] = status
    errors.raise_if_any()
    return values, operator


def _in_client_names(err: Invalid) -> Invalid:
    """A refusal of the household service, its fields named as the client names them."""
    field = CLIENT_FIELDS.get(err.field or "", err.field)
    found = err.extra.get("errors")
    renamed = {CLIENT_FIELDS.get(k, k): v for k, v in found.items()} if isinstance(found, dict) else None
    return Invalid(err.message, field=field, **({"errors": renamed} if renamed else {}))


def create(body: dict) -> CollectionSchedule:
    """A new schedule from {Account_id, Contact, Area, Date_of_collection, sched_stat_id?,
    Collector?}; Pending unless sched_stat_id says otherwise."""
    values, operator = _values(body)
    try:
        return service.create_schedule(values, collector_id=operator.id if operator else None)
    except Invalid as err:
        raise _in_client_names(err) from None


def update(schedule_id: int, body: dict) -> CollectionSchedule:
    """Changes the fields the body holds (any of create's); an unknown id is NotFound first."""
    values, operator = _values(body, service.get_schedule(schedule_id))
    try:
        return service.update_schedule(
            schedule_id, values, collector_id=operator.id if operator else service.UNCHANGED
        )
    except Invalid as err:
        raise _in_client_names(err) from None
