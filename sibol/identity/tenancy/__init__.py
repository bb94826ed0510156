"""Barangays as tenants: the one place that scopes data to a barangay.

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

The package: `scope` holds a session's scope and adds it to every query, `rows` stamps and checks
new and changed rows before a flush, `requests` sets the scope per request and answers the City
Admin's barangay filter. Callers import from here.
"""

from __future__ import annotations

from .requests import (
    FILTER_KEY,
    FILTER_SELECT_MAX,
    active_barangays,
    all_barangays,
    chosen_barangay_name,
    filter_barangays,
    install,
    is_multi_barangay,
)
from .rows import first_barangay_id
from .scope import (
    NeedsBarangay,
    acting_as_city_admin,
    clear_scope,
    current_scope,
    scoped,
    set_scope,
    signed_in_account,
    unscoped,
)

__all__ = [
    "FILTER_KEY",
    "FILTER_SELECT_MAX",
    "NeedsBarangay",
    "acting_as_city_admin",
    "active_barangays",
    "all_barangays",
    "chosen_barangay_name",
    "clear_scope",
    "current_scope",
    "filter_barangays",
    "first_barangay_id",
    "install",
    "is_multi_barangay",
    "scoped",
    "set_scope",
    "signed_in_account",
    "unscoped",
]
