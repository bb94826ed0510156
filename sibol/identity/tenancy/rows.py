"""New and changed rows of a scoped session: stamped with their barangay, refused when they
would belong to, or point at, another barangay's rows."""

from __future__ import annotations

from typing import Any, cast

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import Table, event, func, insert, inspect, select
from sqlalchemy.orm import Session

from ...errors import NotFound
from ...extensions import Model, db
from ...models import Account, Barangay, RoleId
from ...models.core import TenantOwned
from .scope import NEED_SCOPE_KEY, SCOPE_KEY, NeedsBarangay

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
    """A scoped write may point a row only at rows its scope can see (defence in depth).

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
