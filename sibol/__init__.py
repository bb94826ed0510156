"""The SIBOL console: create_app() wires configuration, extensions, blueprints and handlers."""

from __future__ import annotations

import importlib
import logging
from pathlib import Path

from flask import Flask, g, request, session
from flask_babel import gettext as _
from flask_login import AnonymousUserMixin, current_user
from sqlalchemy import event
from sqlalchemy.engine import Engine
from werkzeug.routing import IntegerConverter

from . import models  # noqa: F401 - the tables must be known to metadata and migrations
from .api import install_cors, make_api_blueprint
from .api.openapi import collect_operations
from .cli import register_commands
from .config import load_settings
from .core.pages import bp as core_bp
from .core.static import register_static
from .data.retry import install_write_retry
from .errors import register_error_handlers
from .extensions import compress, csrf, db, limiter, login_manager, mail, migrate
from .i18n.languages import init_i18n
from .identity import ratelimits  # noqa: F401 - registers the sibol-sqlite:// rate-limit store
from .identity.access import enforce_access
from .identity.sessions import is_live_for
from .identity.tenancy import install as install_tenancy
from .identity.tokens import account_for_token, bearer_from_request
from .jobs.queue import init_app as init_tasks
from .models import Account
from .web import idempotency, live, offline
from .web.assets import init_assets
from .web.critical_css import install_critical_css
from .web.security import install_security
from .web.templating import init_templating

ROOT = Path(__file__).resolve().parent.parent

# Each feature is a package with pages.py and, when it has an API, api.py (each defines `bp`).
FEATURES = (
    "auth",
    "admin",
    "machines",
    "dashboard",
    "household",
    "household.residents",
    "profile",
    "maintenance",
    "chat",
    "telemetry",
    "reports",
    "city",  # Barangays and the city dashboard (City Admin)
    "language",
    "commands",  # commands to a machine's controller, from its device page and Process Panels
    "devices",  # the routes a controller calls: its commands, SIBOL's own device API
    "public",  # /b/<slug>, /city/public and their JSON: no sign-in
    "reminders",  # SMS and e-mail the evening before a collection
)


class DatabaseId(IntegerConverter):
    """<int:id> in every route: at most 18 digits, so every id that matches fits a 64-bit
    database integer. A longer one matches no route at all (404), instead of overflowing deep in
    the driver. (A bound checked after matching would make Werkzeug answer 405 for other methods.)"""

    regex = r"\d{1,18}"


def create_app(overrides: dict | None = None) -> Flask:
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
    register_blueprints(app)
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


def register_blueprints(app: Flask) -> None:
    register_static(app)
    app.register_blueprint(core_bp)
    api = make_api_blueprint()
    described = []
    for feature in FEATURES:
        pages = importlib.import_module(f"sibol.{feature}.pages")
        app.register_blueprint(pages.bp)
        if hasattr(pages, "init_app"):  # a feature's own app-level wiring (e.g. Flask-Dance)
            pages.init_app(app)
        api_module = _optional_module(f"sibol.{feature}.api")
        if api_module is None:
            continue
        described.append(importlib.import_module(f"sibol.{feature}.openapi"))
        api.register_blueprint(api_module.bp)
        for extra in getattr(api_module, "API_BLUEPRINTS", ()):  # a feature's routes outside its prefix
            api.register_blueprint(extra)
    live.install(app, api)  # GET /api/live (every live region of a page in one poll), live_attrs()
    app.register_blueprint(api)
    collect_operations(app, [*described, live])


def _optional_module(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        return None


def register_cli(app: Flask) -> None:
    register_commands(app)
