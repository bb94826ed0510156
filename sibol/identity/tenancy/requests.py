"""The scope of each request, from the signed-in account, and the City Admin's barangay filter."""

from __future__ import annotations

from flask import Flask, current_app, g, has_request_context, request, session
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import Row, func, select

from ...errors import Invalid, NotFound, is_api_path
from ...extensions import db
from ...models import Account, Barangay, ModuleId, RoleId
from ..access import access_of
from .rows import first_barangay_id
from .scope import NeedsBarangay, clear_scope, set_scope, unscoped

FILTER_KEY = "sibol_barangay_filter"  # Flask session: the City Admin's chosen barangay (pages)
QUERY_ARG = "barangay_id"  # /api: the City Admin's choice for one request
CITY_BLUEPRINTS = ("city", "api.city")  # the City Admin's own pages and API: never scoped


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
# many barangays the city has (docs/performance.md: every page under 150 KB, light on a 400 kbit/s link).
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
