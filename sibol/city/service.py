"""Barangay management and the city dashboard: the City Admin's own work.

Everything here reads and writes across barangays, so it runs unscoped (tenancy.unscoped()).
The city dashboard's totals are grouped queries over one page of barangays (an IN list on the
barangay_id indexes), plus one ungrouped query per table for the city's totals, kept for a minute
at most (see "The city-wide totals" below).
"""

from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import Flask, current_app, has_app_context
from flask_babel import gettext as _
from sqlalchemy import Select, event, func, select
from sqlalchemy.orm import Session

from ..admin import service as admin_service
from ..data.listing import Page, fetch_page, matches_any
from ..data.rows import get_by_id
from ..errors import Invalid, NotFound
from ..extensions import db
from ..i18n import localtime
from ..identity import tenancy
from ..impact import service as impact
from ..machines import service as areas
from ..models import ROLE_DEFAULT_MODULES, Account, AccountStatus, Barangay, Machine, Module, Role, RoleId
from ..models.household import EnergyReading, HouseholdMember, WasteCollection
from ..models.maintenance import MaintenanceRequest, MaintenanceStatus
from ..public.service import free_slug

NAME_MAX = 100
OPEN_MAINTENANCE = (MaintenanceStatus.REQUESTED, MaintenanceStatus.ONGOING)


# Barangays --------------------------------------------------------------------------------------


def get_barangay(barangay_id: int) -> Barangay:
    with tenancy.unscoped():
        barangay = get_by_id(Barangay, barangay_id)
    if barangay is None:
        raise NotFound(_("Barangay not found."))
    return barangay


def clean_name(raw: object, *, exclude_id: int | None = None) -> str:
    """A barangay's name: required, at most 100 characters, not another barangay's (any case)."""
    if raw is not None and not isinstance(raw, str):
        raise Invalid(_("Name must be text."), field="name")
    name = " ".join((raw or "").split())
    if not name:
        raise Invalid(_("Name is required."), field="name")
    if len(name) > NAME_MAX:
        raise Invalid(_("Name must be at most %(n)s characters.", n=NAME_MAX), field="name")
    with tenancy.unscoped():
        query = select(Barangay.id).where(func.lower(Barangay.name) == name.lower())
        if exclude_id is not None:
            query = query.where(Barangay.id != exclude_id)
        if db.session.scalar(query) is not None:
            raise Invalid(_("A barangay named %(name)s already exists.", name=name), field="name")
    return name


def create_barangay(raw_name: object) -> Barangay:
    """A new barangay with one area (its Admin renames it and adds the others), in one commit:
    without an area its staff could add no machine."""
    name = clean_name(raw_name)
    with tenancy.unscoped():
        barangay = Barangay(name=name, is_active=True, slug=free_slug(name))
    with tenancy.unscoped():
        db.session.add(barangay)
        db.session.flush()
        areas.add_starter_area(barangay.id)
        db.session.commit()
    return barangay


def update_barangay(barangay_id: int, *, name: object = None, is_active: object = None) -> Barangay:
    """Rename and/or (de)activate. A deactivated barangay's accounts cannot sign in."""
    barangay = get_barangay(barangay_id)
    if name is not None:
        barangay.name = clean_name(name, exclude_id=barangay.id)
    if is_active is not None:
        if not isinstance(is_active, bool):
            raise Invalid(_("isActive must be true or false."), field="isActive")
        barangay.is_active = is_active
    with tenancy.unscoped():
        db.session.commit()
    return barangay


@dataclass
class BarangayRow:
    barangay: Barangay
    accounts: int
    admins: list[str]


def _by_name(q: str, *columns) -> tuple[Select, Select]:
    """Barangays (the given columns) by name, searched with q, and their count: the barangay
    list, the city dashboard and the filter's picker page through the same rows."""
    query = select(*columns).order_by(Barangay.name, Barangay.id)
    count = select(func.count()).select_from(Barangay)
    if q:
        query = query.where(matches_any(q, Barangay.name))
        count = count.where(matches_any(q, Barangay.name))
    return query, count


def list_barangays(q: str, page: int, per_page: int) -> Page:
    """Barangays by name with their number of accounts and their Admins' usernames."""
    with tenancy.unscoped():
        query, count = _by_name(q, Barangay)
        found = fetch_page(query, count, page, per_page)
        ids = [b.id for b in found.rows]
        accounts = dict(
            db.session.execute(
                select(Account.barangay_id, func.count())
                .where(Account.barangay_id.in_(ids))
                .group_by(Account.barangay_id)
            ).all()
        )
        admins: dict[int, list[str]] = {}
        for barangay_id, username in db.session.execute(
            select(Account.barangay_id, Account.username)
            .where(
                Account.barangay_id.in_(ids),
                Account.role_id == int(RoleId.ADMIN),
                Account.status == AccountStatus.ACTIVE,
            )
            .order_by(Account.username)
        ):
            admins.setdefault(int(barangay_id or 0), []).append(username)
    found.rows = [BarangayRow(b, int(accounts.get(b.id, 0)), admins.get(b.id, [])) for b in found.rows]
    return found


def pick_barangays(q: str, page: int, per_page: int) -> Page:
    """One page of (id, name, is_active) rows by name for the barangay filter's picker."""
    with tenancy.unscoped():
        query, count = _by_name(q, Barangay.id, Barangay.name, Barangay.is_active)
        return fetch_page(query, count, page, per_page, shape=tuple)


def admins_of(barangay_id: int) -> list[Account]:
    with tenancy.unscoped():
        return list(
            db.session.scalars(
                select(Account)
                .where(Account.barangay_id == barangay_id, Account.role_id == int(RoleId.ADMIN))
                .order_by(Account.username)
            )
        )


def appointable_accounts(barangay_id: int, limit: int = 200) -> list[Account]:
    """Approved accounts of the barangay that are not its Admins yet (the appoint form's choice)."""
    with tenancy.unscoped():
        return list(
            db.session.scalars(
                select(Account)
                .where(
                    Account.barangay_id == barangay_id,
                    Account.role_id != int(RoleId.ADMIN),
                    Account.status == AccountStatus.ACTIVE,
                )
                .order_by(Account.username)
                .limit(limit)
            )
        )


def appoint_admin(
    barangay_id: int, *, account_id: int | None = None, new: dict | None = None
) -> tuple[Account, bool]:
    """Make an account of this barangay its Admin, or create a new Admin there (the admin feature's
    create_account: e-mail checks, set-password link). Returns (account, created)."""
    barangay = get_barangay(barangay_id)
    if account_id is not None:
        with tenancy.unscoped():
            account = db.session.get(Account, account_id)
        if account is None or account.barangay_id != barangay.id:
            raise NotFound(_("No account of this barangay has that id."), field="accountId")
        if account.status != AccountStatus.ACTIVE:
            raise Invalid(_("Only an approved account can be appointed Admin."), field="accountId")

        with tenancy.scoped(barangay.id):
            role = db.session.get(Role, int(RoleId.ADMIN))
            if role is None:  # pragma: no cover - reference data is seeded
                raise NotFound("The Admin role is missing: run `flask seed`.")
            if account.role_id != RoleId.ADMIN:
                admin_service.apply_role(account, role)
            modules = {m.id for m in account.modules}
            if not set(ROLE_DEFAULT_MODULES[RoleId.ADMIN]) <= modules:
                account.modules = list(
                    db.session.scalars(
                        select(Module).where(Module.id.in_(ROLE_DEFAULT_MODULES[RoleId.ADMIN]))
                    )
                )
            db.session.commit()
        return account, False

    data = new or {}
    for field, label in (("firstName", _("First name")), ("lastName", _("Last name")), ("email", _("Email"))):
        value = data.get(field)
        if not isinstance(value, str) or not value.strip():
            raise Invalid(_("%(label)s is required.", label=label), field=field)
        if len(value.strip()) > (254 if field == "email" else 100):
            raise Invalid(_("%(label)s is too long.", label=label), field=field)
    actor = tenancy.signed_in_account()
    if actor is None:  # pragma: no cover - the routes are for signed-in City Admins only
        raise Invalid(_("Sign in as a City Admin to appoint admins."), field="form")
    with tenancy.scoped(barangay.id):
        created = admin_service.create_account(
            actor,
            first_name=data["firstName"],
            last_name=data["lastName"],
            email=data["email"],
            role_id=int(RoleId.ADMIN),
            barangay_id=barangay.id,
            password=data.get("password") or None,
        )
    return created.account, True


# The city dashboard --------------------------------------------------------------------------


@dataclass
class Totals:
    machines: int = 0
    households: int = 0
    waste_kg: float = 0.0  # this month (the impact module's figure)
    energy_kwh: float = 0.0  # this month
    points: int = 0
    open_maintenance: int = 0


def _figures(ids: list[int] | None) -> dict[int | None, Totals]:
    """Totals per barangay id (ids given: grouped queries on the barangay_id indexes) or for the
    whole city (ids None: one ungrouped query per figure, keyed None)."""
    figures: dict[int | None, Totals] = {}
    specs = (
        (Machine.barangay_id, (func.count(Machine.id),), (), ("machines",)),
        (
            HouseholdMember.barangay_id,
            (func.count(HouseholdMember.id), func.sum(HouseholdMember.points)),
            (HouseholdMember.is_active.is_(True),),
            ("households", "points"),
        ),
        (
            MaintenanceRequest.barangay_id,
            (func.count(MaintenanceRequest.id),),
            (MaintenanceRequest.status.in_([str(s) for s in OPEN_MAINTENANCE]),),
            ("open_maintenance",),
        ),
    )
    for column, aggregates, conditions, names in specs:
        if ids is None:
            rows = [(None, *row) for row in db.session.execute(select(*aggregates).where(*conditions))]
        else:
            query = select(column, *aggregates).where(column.in_(ids), *conditions).group_by(column)
            rows = [tuple(row) for row in db.session.execute(query)]
        for barangay_id, *values in rows:
            totals = figures.setdefault(barangay_id, Totals())
            for name, value in zip(names, values, strict=True):
                setattr(totals, name, int(value or 0))
    # Waste and energy of this month: the impact module's figures, as every page shows them.
    month = impact.Period.month_of(localtime.today())
    if ids is None:
        found = {None: impact.for_city(month)}
    else:
        found = dict(impact.for_barangays(ids, month))  # type: ignore[arg-type]
    for key, figure in found.items():
        totals = figures.setdefault(key, Totals())
        totals.waste_kg, totals.energy_kwh = round(figure.waste_kg, 3), round(figure.energy_kwh, 1)
    return figures


@dataclass
class CityRow:
    barangay: Barangay
    totals: Totals


def city_dashboard(page: int, per_page: int, q: str = "") -> tuple[Page, CityTotals]:
    """One page of barangays (by name) with their live totals, and the city's totals over all
    (from the short-lived summary below, with the time they were counted)."""
    with tenancy.unscoped():
        query, count = _by_name(q, Barangay)
        found = fetch_page(query, count, page, per_page)
        per_barangay = _figures([b.id for b in found.rows]) if found.rows else {}
    found.rows = [CityRow(b, per_barangay.get(b.id, Totals())) for b in found.rows]
    return found, city_totals()


# The city-wide totals: a short-lived summary ---------------------------------------------------
#
# Counting the whole city (120,305 machines, every waste collection...) costs about 40 ms on
# MariaDB on every request, and grows with the city. So the totals are kept per app process for
# at most SIBOL_CITY_TOTALS_SECONDS (default 60) with the time they were counted (shown "as of
# HH:MM" on /city, `asOf` in /api/city/dashboard), and dropped as soon as this process commits a
# change to a table they count (machines, household members, waste, energy, maintenance
# requests). Another process's writes (a second gunicorn worker, a CLI import) show within the
# time limit. A generation number keeps a count that raced a commit from being kept.

CITY_TOTALS_SECONDS = 60
COUNTED = (Machine, HouseholdMember, WasteCollection, EnergyReading, MaintenanceRequest)
_STALE_KEY = "sibol_city_totals_stale"


@dataclass
class CityTotals(Totals):
    as_of: datetime = dataclasses.field(default_factory=lambda: datetime.now(UTC))


@dataclass
class _Summary:
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    generation: int = 0
    value: CityTotals | None = None


def _summary(app: Flask | None = None) -> _Summary:
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    return app.extensions.setdefault("sibol_city_totals", _Summary())


def city_totals() -> CityTotals:
    """The city's totals, counted at most SIBOL_CITY_TOTALS_SECONDS ago (and after this process's
    last commit to a counted table)."""
    summary = _summary()
    limit = timedelta(seconds=float(current_app.config.get("SIBOL_CITY_TOTALS_SECONDS", CITY_TOTALS_SECONDS)))
    kept = summary.value
    if kept is not None and datetime.now(UTC) - kept.as_of < limit:
        return kept
    generation = summary.generation
    as_of = datetime.now(UTC)
    with tenancy.unscoped():
        counted = _figures(None).get(None, Totals())
    fresh = CityTotals(**vars(counted), as_of=as_of)
    with summary.lock:
        if summary.generation == generation:  # no counted table changed while we counted
            summary.value = fresh
    return fresh


def forget_city_totals(app: Flask | None = None) -> None:
    summary = _summary(app)
    with summary.lock:
        summary.generation += 1
        summary.value = None


def _touches_counted(objects) -> bool:
    return any(isinstance(obj, COUNTED) for obj in objects)


@event.listens_for(Session, "after_flush")
def _note_counted_writes(session: Session, _context) -> None:
    if _touches_counted(session.new) or _touches_counted(session.dirty) or _touches_counted(session.deleted):
        session.info[_STALE_KEY] = True


@event.listens_for(Session, "do_orm_execute")
def _note_counted_statements(state) -> None:
    if (state.is_update or state.is_delete or state.is_insert) and state.bind_mapper is not None:
        if issubclass(state.bind_mapper.class_, COUNTED):
            state.session.info[_STALE_KEY] = True


@event.listens_for(Session, "after_commit")
def _forget_after_counted_commit(session: Session) -> None:
    if session.info.pop(_STALE_KEY, False) and has_app_context():
        forget_city_totals()


@event.listens_for(Session, "after_rollback")
def _nothing_changed(session: Session) -> None:
    session.info.pop(_STALE_KEY, None)
