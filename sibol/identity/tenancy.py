"""Barangays as tenants (issue 15): the one place that scopes data to a barangay.

A request has a *scope*: the barangay whose rows it may see, or None (every barangay). It is set
once per request from the signed-in account (`scope_request`, a before_request hook):

  Admin, Barangay Staff, Operator, Household  their own barangay, always;
  City Admin                                  the barangay chosen with the filter (pages: kept in
                                              the Flask session by /barangay-filter; /api: the
                                              `?barangay_id=` query argument), else None.

Two Session listeners then do the rest, for every view, service and task alike:

  do_orm_execute  adds `with_loader_criteria(TenantOwned, barangay_id == scope)` (and the same for
                  Account, and Barangay.id == scope) to every ORM SELECT, UPDATE and DELETE, so
                  another barangay's rows are simply not found: a 404 everywhere.
  before_flush    stamps each new tenant row: the scope's barangay; unscoped, its parent's (the
                  machine of an alert, the request of an attachment...), else the first barangay
                  (CLI, seeds, tests). A row whose barangay differs from the scope is refused, and
                  a City Admin with "All barangays" chosen cannot create rows whose barangay is
                  unknown (NeedsBarangay, a 400 naming the field barangayId).

CLI commands, seeds and background tasks run unscoped unless they use `scoped(barangay_id)`.
Objects already in the identity map when a scope is set are expired (except the signed-in
account), so `db.session.get()` cannot hand back a row loaded before the scope.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, cast

from flask import Flask, current_app, g, has_request_context, request, session
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import Row, Table, event, func, insert, inspect, or_, select
from sqlalchemy.exc import InvalidRequestError
from sqlalchemy.orm import ORMExecuteState, Session, with_loader_criteria

from ..errors import Invalid, NotFound, is_api_path
from ..extensions import Model, db
from ..models import Account, Barangay, Machine, ModuleId, RoleId
from ..models.core import TenantOwned
from ..models.telemetry import Reading, Rollup

SCOPE_KEY = "sibol_barangay_scope"  # Session.info: the barangay id, or None
NEED_SCOPE_KEY = "sibol_new_rows_need_scope"  # Session.info: City Admin with "All barangays"
HIDDEN_KEY = "sibol_scope_hidden"  # Session.info: objects of other barangays taken out of the map
ME_KEY = "sibol_scope_account"  # Session.info: the signed-in account's id (always reloadable)
FILTER_KEY = "sibol_barangay_filter"  # Flask session: the City Admin's chosen barangay (pages)
QUERY_ARG = "barangay_id"  # /api: the City Admin's choice for one request
CITY_BLUEPRINTS = ("city", "api.city")  # the City Admin's own pages and API: never scoped

__all__ = [
    "FILTER_KEY",
    "NeedsBarangay",
    "TenantOwned",
    "active_barangays",
    "current_scope",
    "first_barangay_id",
    "install",
    "is_multi_barangay",
    "scoped",
    "set_scope",
    "unscoped",
]


class NeedsBarangay(Invalid):
    """A City Admin viewing every barangay tried to create a row that belongs to one."""

    def __init__(self) -> None:
        super().__init__(
            "Choose a barangay in the barangay filter first: new records belong to one barangay.",
            field="barangayId",
        )


# The scope ------------------------------------------------------------------------------------


def current_scope(sess: Session | None = None) -> int | None:
    return (sess or db.session()).info.get(SCOPE_KEY)


def set_scope(barangay_id: int | None, *, new_rows_need_scope: bool = False) -> None:
    """Scope the current database session to one barangay (None: every barangay)."""
    sess = db.session()
    sess.info[SCOPE_KEY] = int(barangay_id) if barangay_id is not None else None
    sess.info[NEED_SCOPE_KEY] = bool(new_rows_need_scope and barangay_id is None)
    me = signed_in_account()
    sess.info[ME_KEY] = me.id if me is not None else None
    if barangay_id is not None:
        sess.info[SCOPE_KEY] = None  # read what must be hidden unscoped
        _hide_foreign_objects(sess, int(barangay_id))
        sess.info[SCOPE_KEY] = int(barangay_id)


def clear_scope() -> None:
    sess = db.session()
    sess.info.pop(SCOPE_KEY, None)
    _restore_hidden(sess)
    sess.info.pop(NEED_SCOPE_KEY, None)
    sess.info.pop(ME_KEY, None)


@contextmanager
def scoped(barangay_id: int | None) -> Iterator[None]:
    """Run a block (a CLI command, a task) as one barangay, then restore the previous scope."""
    sess = db.session()
    before = (sess.info.get(SCOPE_KEY), sess.info.get(NEED_SCOPE_KEY, False))
    hidden_before = len(sess.info.get(HIDDEN_KEY) or [])
    set_scope(barangay_id)
    try:
        yield
    finally:
        _restore_hidden(sess, hidden_before)
        sess.info[SCOPE_KEY], sess.info[NEED_SCOPE_KEY] = before


@contextmanager
def unscoped() -> Iterator[None]:
    """Every barangay, for the City Admin's own pages (barangay management, the city dashboard)."""
    with scoped(None):
        yield


def _hide_foreign_objects(sess: Session, barangay_id: int) -> None:
    """Take objects of other barangays out of the identity map while the scope lasts.

    session.get() answers from the identity map without SQL, so an object loaded before the
    scope (unscoped: by a CLI command, or by a test sharing the session) would be found. In a
    request the map holds only the signed-in account; tests share one session across requests,
    so the objects are put back when the scope ends (clear_scope) rather than discarded."""
    me = signed_in_account()
    # The account's own barangay only when loaded: reading it here would load it on every request.
    keep = {id(me), id(me.__dict__.get("barangay"))} if me is not None else set()
    pending = set(map(id, sess.dirty)) | set(map(id, sess.new))  # never lose unflushed changes
    hidden: list = sess.info.setdefault(HIDDEN_KEY, [])
    for obj in list(sess.identity_map.values()):
        if id(obj) in keep or id(obj) in pending or obj not in sess:
            continue  # not in sess: expunged already with its parent (a schedule's areas)
        if isinstance(obj, TenantOwned | Account):
            attr = "barangay_id"
        elif isinstance(obj, Barangay):
            attr = "id"
        else:
            continue
        state = inspect(obj)
        if attr not in state.dict:  # expired: read it (unscoped: the scope is not set yet)
            try:
                sess.refresh(obj, [attr])
            except InvalidRequestError:  # the row was deleted meanwhile: nothing to hide
                continue
        if state.dict.get(attr) != barangay_id:
            sess.expunge(obj)
            hidden.append(obj)


def _restore_hidden(sess: Session, keep_first: int = 0) -> None:
    hidden: list = sess.info.get(HIDDEN_KEY) or []
    for obj in hidden[keep_first:]:
        key = inspect(obj).key
        if key is not None and key not in sess.identity_map:
            sess.add(obj)
    del hidden[keep_first:]


def acting_as_city_admin() -> bool:
    """The request is a City Admin's (outside requests - CLI, seeds - everything is allowed)."""
    if not has_request_context():
        return True
    return bool(current_user.is_authenticated and current_user.role_id == RoleId.CITY_ADMIN)


def signed_in_account() -> Account | None:
    if not has_request_context():
        return None
    user = g.get("_login_user")
    return user if isinstance(user, Account) else None


# Queries ---------------------------------------------------------------------------------------


@event.listens_for(Session, "do_orm_execute")
def _scope_statement(state: ORMExecuteState) -> None:
    scope = state.session.info.get(SCOPE_KEY)
    if scope is None or not (state.is_select or state.is_update or state.is_delete):
        return
    if not state.is_orm_statement:
        # Only Table objects (no mapped class): SQLAlchemy runs it as Core, where loader criteria
        # have no effect; such statements scope themselves through a mapped class they join to
        # or by their own WHERE (the accounts' modules of /api/admin/accounts by account id).
        return
    if state.is_column_load:
        # Refreshing an expired object (session.get() of one in the identity map, or any object
        # after a commit), also one first loaded through a relationship: is_relationship_load is
        # then true as well, so this comes first (tests/api/test_tenant_isolation.py found it
        # with maintenance attachments). SQLAlchemy leaves loader criteria out of refreshes, so
        # the condition goes in the WHERE clause: an object of another barangay is then
        # "deleted" and get() answers None. The signed-in account always reloads (a City Admin
        # belongs to no barangay).
        mapper = state.bind_mapper
        cls = mapper.class_ if mapper is not None else None
        if cls is not None and issubclass(cls, TenantOwned):
            state.statement = state.statement.where(cls.barangay_id == scope)  # type: ignore[attr-defined]
        elif cls is Account:
            me = state.session.info.get(ME_KEY) or 0
            state.statement = state.statement.where(or_(Account.barangay_id == scope, Account.id == me))  # type: ignore[attr-defined]
        elif cls is Barangay:
            state.statement = state.statement.where(Barangay.id == scope)  # type: ignore[attr-defined]
        elif cls in THROUGH_MACHINE:
            state.statement = state.statement.where(_of_scoped_machines(cls, scope))  # type: ignore[attr-defined]
        return
    if state.is_relationship_load:
        return  # relationship loads inherit the criteria of the query that loaded the parent
    state.statement = state.statement.options(*_scope_criteria(scope))


# Tables without a barangay column whose rows belong to one machine: their barangay is their
# machine's. Per-machine reads load the machine through the scoped session first, but aggregates
# over every machine (the dashboard's and the monthly report's kWh, "has any machine weighed
# waste?") read them directly, so they are scoped here too.
THROUGH_MACHINE: tuple[type, ...] = (Reading, Rollup)
_MACHINES = cast(Table, Machine.__table__)


def _of_scoped_machines(cls: Any, scope: int):
    """cls.machine_id is one of the barangay's machines (a Core subquery on machines' barangay_id
    index: the ORM criteria are not applied to it again)."""
    return cls.machine_id.in_(select(_MACHINES.c.id).where(_MACHINES.c.barangay_id == scope))


@lru_cache(maxsize=4096)
def _scope_criteria(scope: int) -> tuple:
    """The loader criteria of one barangay, built once per barangay and process (issue 17).

    Building the three options cost about 0.1 ms per query. They are immutable and the same for
    every statement of that barangay; `scope` inside the lambdas is a closure variable that
    SQLAlchemy turns into a bound parameter (track_closure_variables), so the compiled SQL is
    shared by every barangay and the value is taken from the option at execution."""
    return (
        with_loader_criteria(TenantOwned, lambda cls: cls.barangay_id == scope, include_aliases=True),
        with_loader_criteria(Account, lambda cls: cls.barangay_id == scope, include_aliases=True),
        with_loader_criteria(Barangay, lambda cls: cls.id == scope, include_aliases=True),
        *(
            with_loader_criteria(
                through,
                lambda cls: cls.machine_id.in_(
                    select(_MACHINES.c.id).where(_MACHINES.c.barangay_id == scope)
                ),
                include_aliases=True,
            )
            for through in THROUGH_MACHINE
        ),
    )


# Writes ----------------------------------------------------------------------------------------

_TENANT_TABLES: dict[str, type] = {}


def _tenant_class_of(table_name: str) -> type | None:
    if not _TENANT_TABLES:
        for mapper in Model.registry.mappers:
            cls = mapper.class_
            if issubclass(cls, TenantOwned):
                _TENANT_TABLES[cast(Table, mapper.local_table).name] = cls
    return _TENANT_TABLES.get(table_name)


def _parent_barangay(sess: Session, obj: Any) -> int | None:
    """The barangay of the row this one hangs off (through a loaded relationship or a foreign key)."""
    mapper = inspect(obj).mapper
    state = inspect(obj)
    for rel in mapper.relationships:
        if rel.direction.name != "MANYTOONE" or not issubclass(rel.mapper.class_, TenantOwned):
            continue
        parent = state.attrs[rel.key].loaded_value
        if isinstance(parent, TenantOwned) and parent.barangay_id is not None:
            return parent.barangay_id
    # Foreign keys to tenant rows first (the machine of an alert), then to accounts (the target of
    # an audit entry, the account of a household).
    for wanted in ("tenant", "account"):
        for column in mapper.local_table.columns:
            for fk in column.foreign_keys:
                table_name = fk.column.table.name
                parent_cls = _tenant_class_of(table_name) if wanted == "tenant" else None
                if wanted == "account" and table_name == Account.__tablename__:
                    parent_cls = Account
                if parent_cls is None:
                    continue
                value = getattr(obj, mapper.get_property_by_column(column).key, None)
                if value is None:
                    continue
                with sess.no_autoflush:
                    parent = sess.get(parent_cls, value)
                if parent is not None and parent.barangay_id is not None:
                    return parent.barangay_id
    return None


def first_barangay_id(sess: Session | None = None) -> int:
    """The first barangay (lowest id); created from SIBOL_DEFAULT_BARANGAY_NAME when there is none."""
    sess = sess or db.session()
    with sess.no_autoflush:
        found = sess.execute(select(func.min(Barangay.id))).scalar()
    if found is not None:
        return int(found)
    name = current_app.config.get("SIBOL_DEFAULT_BARANGAY_NAME") or "Barangay Fortune"
    # Core, not the ORM: this runs inside a flush, which cannot add objects it then depends on.
    table = cast(Table, Barangay.__table__)
    result = sess.connection().execute(insert(table).values(name=name, is_active=True))
    return int(cast(tuple, result.inserted_primary_key)[0])


@event.listens_for(Session, "before_flush")
def _stamp_new_rows(sess: Session, _context, _instances) -> None:
    scope = sess.info.get(SCOPE_KEY)
    need_scope = sess.info.get(NEED_SCOPE_KEY, False)
    first: int | None = None
    for obj in list(sess.new):
        if isinstance(obj, TenantOwned):
            if obj.barangay_id is None:
                found = scope if scope is not None else _parent_barangay(sess, obj)
                if found is None and getattr(obj, "__tenant_optional__", False):
                    continue  # e.g. an audit entry about a City Admin: the city's, no barangay's
                if found is None:
                    if need_scope:
                        raise NeedsBarangay()
                    first = first or first_barangay_id(sess)
                    found = first
                obj.barangay_id = found
            elif scope is not None and obj.barangay_id != scope:
                raise NotFound(_("Not found."))
        elif isinstance(obj, Account) and obj.role_id != RoleId.CITY_ADMIN:
            if obj.barangay_id is None and obj.barangay is None:
                if scope is not None:
                    obj.barangay_id = scope
                elif need_scope:
                    raise NeedsBarangay()
                else:
                    first = first or first_barangay_id(sess)
                    obj.barangay_id = first
            elif scope is not None and obj.barangay_id not in (None, scope):
                raise NotFound(_("Not found."))
    if scope is None:
        return
    for obj in sess.dirty:
        if isinstance(obj, TenantOwned | Account):
            history = inspect(obj).attrs.barangay_id.history
            if history.has_changes() and obj.barangay_id != scope:
                raise NotFound(_("Not found."))  # a scoped request cannot move a row to another barangay
    for obj in list(sess.new) + list(sess.dirty):
        if isinstance(obj, TenantOwned):
            _refuse_foreign_references(sess, obj)


def _refuse_foreign_references(sess: Session, obj: Any) -> None:
    """A scoped write may point a row only at rows its scope can see (issue 15, defence in depth).

    Services look up the ids they are given through the scoped session, so another barangay's id
    is already a 404 there; this holds the rule for any write that forgot to: each foreign key of
    a new row, or changed in a row, to a tenant row must name one the scope finds."""
    state = inspect(obj)
    mapper = state.mapper
    for column in mapper.local_table.columns:
        for fk in column.foreign_keys:
            parent_cls = _tenant_class_of(fk.column.table.name)
            if parent_cls is None or parent_cls is type(obj) and column.name == "id":
                continue
            key = mapper.get_property_by_column(column).key
            if state.key is not None and not state.attrs[key].history.has_changes():
                continue  # unchanged on a row that exists: checked when it was written
            value = state.dict.get(key)
            if value is None:
                continue
            with sess.no_autoflush:
                found = sess.get(parent_cls, value)  # the scope's loader criteria hide others' rows
            if found is None:
                raise NotFound(_("Not found."))


# Per request -----------------------------------------------------------------------------------


def _parse_id(raw: str) -> int | None:
    raw = (raw or "").strip()
    if not raw.isdecimal() or len(raw) > 18:
        return None
    return int(raw)


def _barangay_exists(barangay_id: int) -> bool:
    return db.session.get(Barangay, barangay_id) is not None


def scope_request():
    """before_request: scope the database session to the signed-in account's barangay."""
    clear_scope()
    g.pop("sibol_multi_barangay", None)
    g.pop("sibol_barangay_choice", None)
    if not current_user.is_authenticated:
        return None
    account: Account = current_user._get_current_object()
    asked = request.args.get(QUERY_ARG) if is_api_path(request.path) else None
    if asked is not None:
        chosen = _parse_id(asked)
        if chosen is None:
            raise Invalid(_("barangay_id must be a barangay's id (a whole number)."), field=QUERY_ARG)
    if account.role_id == RoleId.CITY_ADMIN:
        if request.blueprint in CITY_BLUEPRINTS and asked is None:
            # Barangay management and the city dashboard work across barangays: unscoped, but
            # the filter's choice still shows in the top bar.
            g.sibol_barangay_choice = session.get(FILTER_KEY)
            set_scope(None)
            return None
        if asked is None:
            chosen = session.get(FILTER_KEY) if not is_api_path(request.path) else None
            if chosen is not None and not _barangay_exists(int(chosen)):
                session.pop(FILTER_KEY, None)
                chosen = None
        elif chosen is None or not _barangay_exists(chosen):
            raise NotFound(_("Barangay not found."), field=QUERY_ARG)
        set_scope(chosen, new_rows_need_scope=True)
        g.sibol_barangay_choice = chosen
        if chosen is None and request.method in ("POST", "PUT", "PATCH", "DELETE") and _changes_tenant_data():
            raise NeedsBarangay()  # which barangay's point rule, schedule, machine...? Choose one.
        return None
    own = account.barangay_id
    if own is None:
        own = first_barangay_id()
    if asked is not None and chosen != own:
        raise NotFound(_("Barangay not found."), field=QUERY_ARG)  # 404, not 403: no hint it exists
    set_scope(own)
    return None


# Modules whose writes change one barangay's data (the Admin module's accounts name their barangay).
TENANT_MODULES = (ModuleId.DASHBOARD, ModuleId.MACHINES, ModuleId.MAINTENANCE, ModuleId.HOUSEHOLD)


def _changes_tenant_data() -> bool:
    from .access import access_of

    access = access_of(request.endpoint)
    return access is not None and access.kind == "module" and access.module in TENANT_MODULES


def is_multi_barangay() -> bool:
    """More than one barangay exists: only then do pages show the filter and barangay columns."""
    cached = g.get("sibol_multi_barangay") if has_request_context() else None
    if cached is not None:
        return bool(cached)
    with unscoped():
        many = (db.session.scalar(select(func.count()).select_from(Barangay.__table__)) or 0) > 1
    if has_request_context():
        g.sibol_multi_barangay = many
    return many


def chosen_barangay_name() -> str | None:
    """The name of the barangay a City Admin chose with the filter (None: every barangay)."""
    chosen = g.get("sibol_barangay_choice") if has_request_context() else None
    if chosen is None:
        return None
    with unscoped():
        found = db.session.get(Barangay, chosen)
    return found.name if found is not None else None


def active_barangays() -> list[Barangay]:
    """Every active barangay by name (signup's choice, the City Admin's filter)."""
    with unscoped():
        return list(
            db.session.scalars(select(Barangay).where(Barangay.is_active.is_(True)).order_by(Barangay.name))
        )


def all_barangays(limit: int | None = None) -> list[Row]:
    """(id, name, is_active) of every barangay by name (at most `limit`): plain rows, not ORM
    objects (with 1,000 barangays the objects took half of the /city page's time)."""
    with unscoped():
        query = select(Barangay.id, Barangay.name, Barangay.is_active).order_by(Barangay.name, Barangay.id)
        if limit is not None:
            query = query.limit(limit)
        return list(db.session.execute(query))


# The top bar's filter is a <select> up to this many barangays; past it, the current choice and a
# "Change" link to the paged picker (/city/barangay-filter/choose): a page stays a few KB however
# many barangays the city has (DESIGN.md: every page under 150 KB, light on a 400 kbit/s link).
FILTER_SELECT_MAX = 30


def filter_barangays() -> list[Row] | None:
    """The top bar filter's options: every barangay when there are at most FILTER_SELECT_MAX,
    else None (the top bar then links to the picker). Reads at most FILTER_SELECT_MAX + 1 rows."""
    rows = all_barangays(limit=FILTER_SELECT_MAX + 1)
    return rows if len(rows) <= FILTER_SELECT_MAX else None


def install(app: Flask) -> None:
    """Scope every request after the identity is known; unscope when it ends (tests reuse the session)."""
    app.before_request(scope_request)

    @app.teardown_request
    def _unscope(_exc):
        try:
            clear_scope()
        except Exception:  # pragma: no cover - no session to clear
            current_app.logger.debug("No session to unscope")

    @app.context_processor
    def _tenancy_context() -> dict:
        return {
            "multi_barangay": is_multi_barangay,
            "barangay_choice": lambda: g.get("sibol_barangay_choice"),
            "filter_barangays": filter_barangays,
            "chosen_barangay_name": chosen_barangay_name,
        }
