"""The SIBOL console: create_app() wires configuration, extensions, blueprints and handlers."""

from __future__ import annotations

import logging
from pathlib import Path

from flask import Flask, g, request, session
from flask_babel import gettext as _
from flask_dance.consumer import oauth_authorized
from flask_login import AnonymousUserMixin, current_user, user_logged_in
from sqlalchemy import event
from sqlalchemy.engine import Engine
from werkzeug.routing import IntegerConverter

from . import models  # noqa: F401 - the tables must be known to metadata and migrations
from .admin import api as admin_api
from .admin import openapi as admin_openapi
from .admin import pages as admin_pages
from .api import install_cors, make_api_blueprint
from .api.openapi import collect_operations
from .auth import api as auth_api
from .auth import google, second_step_pages
from .auth import openapi as auth_openapi
from .auth import pages as auth_pages
from .auth import tasks as auth_tasks
from .chat import pages as chat_pages
from .city import api as city_api
from .city import openapi as city_openapi
from .city import pages as city_pages
from .cli import register_commands
from .commands import api as commands_api
from .commands import device_api
from .commands import openapi as commands_openapi
from .commands import pages as commands_pages
from .config import load_settings
from .core import openapi as core_openapi
from .core.pages import bp as core_bp
from .core.static import register_static
from .dashboard import api as dashboard_api
from .dashboard import openapi as dashboard_openapi
from .dashboard import pages as dashboard_pages
from .data.retry import install_write_retry
from .devices import http as devices_http
from .errors import register_error_handlers
from .extensions import compress, csrf, db, limiter, login_manager, mail, migrate
from .household import api as household_api
from .household import client_api, day_pages
from .household import openapi as household_openapi
from .household import pages as household_pages
from .household.residents import api as residents_api
from .household.residents import openapi as residents_openapi
from .household.residents import pages as residents_pages
from .i18n.languages import init_i18n
from .identity import ratelimits  # noqa: F401 - registers the sibol-sqlite:// rate-limit store
from .identity.access import enforce_access
from .identity.sessions import is_live_for
from .identity.tenancy import install as install_tenancy
from .identity.tokens import account_for_token, bearer_from_request
from .jobs.queue import init_app as init_tasks
from .language import api as language_api
from .language import openapi as language_openapi
from .language import pages as language_pages
from .machines import api as machines_api
from .machines import cli as machines_cli
from .machines import openapi as machines_openapi
from .machines import pages as machines_pages
from .maintenance import api as maintenance_api
from .maintenance import openapi as maintenance_openapi
from .maintenance import pages as maintenance_pages
from .models import Account
from .profile import api as profile_api
from .profile import openapi as profile_openapi
from .profile import pages as profile_pages
from .profile import service as profile_service
from .profile import two_factor_pages
from .public import api as public_api
from .public import openapi as public_openapi
from .public import pages as public_pages
from .reminders import api as reminders_api
from .reminders import openapi as reminders_openapi
from .reminders import pages as reminders_pages
from .reminders import tasks as reminder_tasks
from .reports import api as reports_api
from .reports import openapi as reports_openapi
from .reports import pages as reports_pages
from .telemetry import api as telemetry_api
from .telemetry import cli as telemetry_cli
from .telemetry import live as telemetry_live
from .telemetry import openapi as telemetry_openapi
from .telemetry import pages as telemetry_pages
from .telemetry import sibol_api
from .telemetry import tasks as telemetry_tasks
from .web import idempotency, live, offline
from .web.assets import init_assets
from .web.critical_css import install_critical_css
from .web.features import Feature, install_features, install_wsgi
from .web.security import install_security
from .web.templating import init_templating

ROOT = Path(__file__).resolve().parent.parent

# Everything a feature adds to the app, in one declared shape (sibol/web/features.py). A
# feature's modules register nothing themselves: tests/unit/test_features.py holds them to it.
FEATURES: tuple[Feature, ...] = (
    Feature(
        "auth",
        blueprints=(auth_pages.bp, second_step_pages.bp),  # /login/code: the second step
        api=(auth_api.bp,),
        openapi=auth_openapi,
        configured_blueprints=(google.make_blueprint,),  # Flask-Dance, from the provider's settings
        signals=((oauth_authorized, google.on_authorized),),
        tasks=(auth_tasks,),
    ),
    Feature("admin", blueprints=(admin_pages.bp,), api=(admin_api.bp,), openapi=admin_openapi),
    Feature(
        "machines",
        blueprints=(machines_pages.bp,),
        api=(machines_api.bp,),
        openapi=machines_openapi,
        cli=(machines_cli.register_commands,),
    ),
    Feature(
        "dashboard",
        blueprints=(dashboard_pages.bp,),
        api=(dashboard_api.bp,),
        openapi=dashboard_openapi,
        jinja_filters={"kg_number": dashboard_pages.kg_number},
    ),
    Feature(
        "household",
        blueprints=(household_pages.bp, day_pages.bp),  # the collection day stands beside the page
        api=(household_api.bp, client_api.bp),  # client_api: the spec client's routes, at its paths
        openapi=household_openapi,
        jinja_filters={"kg": household_pages.kg_filter},
    ),
    Feature(
        "residents", blueprints=(residents_pages.bp,), api=(residents_api.bp,), openapi=residents_openapi
    ),
    Feature(
        "profile",
        blueprints=(profile_pages.bp, two_factor_pages.bp),  # /profile/two-factor
        api=(profile_api.bp,),
        openapi=profile_openapi,
        signals=((user_logged_in, profile_service.on_user_logged_in),),  # records every sign-in
    ),
    Feature(
        "maintenance",
        blueprints=(maintenance_pages.bp,),
        api=(maintenance_api.bp,),
        openapi=maintenance_openapi,
    ),
    Feature("chat", blueprints=(chat_pages.bp,)),
    Feature(
        "telemetry",
        blueprints=(telemetry_pages.bp, telemetry_live.bp),  # live: the live regions' fragments
        api=(telemetry_api.bp, sibol_api.bp),  # sibol_api: SIBOL's own device routes, at its paths
        openapi=telemetry_openapi,
        cli=(telemetry_cli.register_commands,),
        jinja_globals=telemetry_pages.TEMPLATE_GLOBALS,
        tasks=(telemetry_tasks,),
    ),
    Feature("reports", blueprints=(reports_pages.bp,), api=(reports_api.bp,), openapi=reports_openapi),
    Feature(
        "city", blueprints=(city_pages.bp,), api=(city_api.bp,), openapi=city_openapi
    ),  # barangays, city dashboard
    Feature("language", blueprints=(language_pages.bp,), api=(language_api.bp,), openapi=language_openapi),
    Feature(  # commands to a machine's controller, from its device page and Process Panels
        "commands",
        blueprints=(commands_pages.bp,),
        api=(commands_api.bp, device_api.bp),  # device_api: the controller's side, by its key
        openapi=commands_openapi,
        jinja_globals=commands_pages.TEMPLATE_GLOBALS,
    ),
    Feature(  # a machine's controller: its device key, and the lean path of its HTTP routes
        "devices",
        # The device routes (keys.device_route) are served in front of the app, without the page
        # machinery (sessions, CSRF, templates): a reading costs a fraction of a page request.
        wsgi=(devices_http.DeviceRoutes,),
    ),
    Feature(  # /b/<slug>, /city/public and their JSON: no sign-in
        "public", blueprints=(public_pages.bp,), api=(public_api.bp,), openapi=public_openapi
    ),
    Feature(  # SMS and e-mail the evening before a collection
        "reminders",
        blueprints=(reminders_pages.bp,),
        api=(reminders_api.bp,),
        openapi=reminders_openapi,
        jinja_globals={"member_reminders": reminders_pages.member_reminders},
        tasks=(reminder_tasks,),
    ),
)


class DatabaseId(IntegerConverter):
    """<int:id> in every route: at most 18 digits, so every id that matches fits a 64-bit
    database integer. A longer one matches no route at all (404), instead of overflowing deep in
    the driver. (A bound checked after matching would make Werkzeug answer 405 for other methods.)"""

    regex = r"\d{1,18}"


def create_app(overrides: dict | None = None, features: tuple[Feature, ...] | None = None) -> Flask:
    """The app; `features` (all of FEATURES by default) lets a test see what the platform alone adds."""
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        instance_path=str(ROOT / "instance"),
        static_folder=None,  # sibol.core.static serves files, pre-compressed when it can
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(load_settings(app.instance_path))
    app.config.update(overrides or {})
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # How long a write waits for another writer before the request answers 503 (errors.py).
        busy = float(app.config.get("SIBOL_DB_BUSY_TIMEOUT", 5))
        options = dict(app.config["SQLALCHEMY_ENGINE_OPTIONS"])
        options["connect_args"] = {**options.get("connect_args", {}), "timeout": busy}
        # A local file cannot drop a pooled connection: no SELECT 1 before every request.
        options["pool_pre_ping"] = False
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    # Keep the field order of the spec's shapes (app.json is Flask's DefaultJSONProvider).
    app.json.sort_keys = False  # type: ignore[attr-defined]
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    install_security(app)
    register_extensions(app)
    init_i18n(app)
    register_request_hooks(app)

    install_tenancy(app)  # after the identity hooks: the scope comes from the signed-in account
    app.url_map.converters["int"] = DatabaseId  # before any route is added
    register_blueprints(app, FEATURES if features is None else features)
    offline.install(app)  # /sw.js and /manifest.webmanifest
    idempotency.install(app)  # after access and tenancy: it keys on the caller and barangay
    register_error_handlers(app)
    install_write_retry(app)
    register_cli(app)
    init_assets(app)
    init_templating(app)
    install_critical_css(app)  # last: runs before Flask-Compress and the security headers
    return app


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, _record):
    # SQLite leaves foreign keys off and uses a rollback journal unless told otherwise.
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()


def register_extensions(app: Flask) -> None:
    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    login_manager.init_app(app)
    mail.init_app(app)
    csrf.init_app(app)
    compress.init_app(app)
    limiter.init_app(app)

    init_tasks(app)
    login_manager.login_view = "auth.login"
    login_manager.login_message = None
    login_manager.session_protection = "basic"
    login_manager.user_loader(_load_session_user)


def _load_session_user(user_id: str):
    """Flask-Login loader: the id carries the account's session epoch."""
    raw_id, _sep, epoch = str(user_id).partition(".")
    if not raw_id.isdecimal():
        return None
    account = db.session.get(Account, int(raw_id))
    if account is None:
        return None
    if not account.is_active:
        session["sibol_signed_out_reason"] = (
            _("Your account has been disabled. Contact your barangay administrator.")
            if not account.is_enabled
            else _("Your barangay has been deactivated. Contact your city administrator.")
            if account.barangay is not None and not account.barangay.is_active
            else _("Your account is not active.")
        )
        return None

    if epoch != str(account.session_epoch or 0) or not is_live_for(account):
        # Signed out (on this or another copy of the cookie), or every session of the account ended.
        session["sibol_signed_out_reason"] = _("Your session has ended. Please sign in again.")
        return None
    return account


def register_request_hooks(app: Flask) -> None:
    install_cors(app)

    @app.before_request
    def fresh_request_state():
        # g lives on the app context, which a test (or a CLI command) may keep across requests.
        for name in (
            "_login_user",
            "sibol_bearer",
            "sibol_assets_emitted",
            "sibol_unread",
            "sibol_live_etags",
        ):
            g.pop(name, None)

    @app.before_request
    def bearer_identity():
        # A bearer token is the whole identity of the request: the cookie is not consulted.
        raw = bearer_from_request()
        if raw is not None:
            g.sibol_bearer = True
            g._login_user = account_for_token(raw) or AnonymousUserMixin()

    # An offline entry sent under another account is refused before its (stale) CSRF token is.
    app.before_request(offline.refuse_another_accounts_entry)

    @app.before_request
    def csrf_for_cookie_writes():
        if request.method in ("GET", "HEAD", "OPTIONS", "TRACE"):
            return
        if g.get("sibol_bearer"):
            return  # a bearer token cannot be sent by another site's form
        if getattr(app.view_functions.get(request.endpoint or ""), "sibol_csrf_exempt", False):
            return  # authenticated by its own header (a device key), never by the cookie
        if request.url_rule is None:
            return  # no route (404/405): nothing runs, and the error answers as JSON where asked
        if request.path.startswith("/api/"):
            if app.config["SESSION_COOKIE_NAME"] not in request.cookies:
                return  # no cookie, no ambient authority to forge (API clients such as a mobile app)
            if request.is_json and not current_user.is_authenticated:
                # A cookie that carries no signed-in account gives no authority to forge, and
                # another site cannot send a JSON body without a CORS preflight.
                return
        if not app.config.get("WTF_CSRF_ENABLED", True):
            return
        csrf.protect()

    app.before_request(enforce_access)


def register_blueprints(app: Flask, features: tuple[Feature, ...]) -> None:
    register_static(app)
    app.register_blueprint(core_bp)
    api = make_api_blueprint()
    described = install_features(app, api, features)
    live.install(app, api)  # GET /api/live (every live region of a page in one poll), live_attrs()
    app.register_blueprint(api)
    collect_operations(app, [core_openapi, *described, live])
    install_wsgi(app, features)


def register_cli(app: Flask) -> None:
    register_commands(app)
