"""A database session's barangay scope, and the criteria it adds to every ORM query."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, cast

from flask import g, has_request_context
from flask_login import current_user
from sqlalchemy import Table, event, inspect, or_, select
from sqlalchemy.exc import InvalidRequestError
from sqlalchemy.orm import ORMExecuteState, Session, with_loader_criteria

from ...errors import Invalid
from ...extensions import db
from ...models import Account, Barangay, Machine, RoleId
from ...models.core import TenantOwned
from ...models.telemetry import Reading, Rollup

SCOPE_KEY = "sibol_barangay_scope"  # Session.info: the barangay id, or None
NEED_SCOPE_KEY = "sibol_new_rows_need_scope"  # Session.info: City Admin with "All barangays"
HIDDEN_KEY = "sibol_scope_hidden"  # Session.info: objects of other barangays taken out of the map
ME_KEY = "sibol_scope_account"  # Session.info: the signed-in account's id (always reloadable)


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
    """The loader criteria of one barangay, built once per barangay and process.

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
