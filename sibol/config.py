"""Settings read from the environment (the README's Configuration table); the only module that reads it."""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from pathlib import Path

from dotenv import load_dotenv

DEFAULT_AUTHORIZATION_URL = "https://accounts.google.com/o/oauth2/v2/auth"
DEFAULT_TOKEN_URL = "https://oauth2.googleapis.com/token"  # noqa: S105 - a URL, not a secret
DEFAULT_USERINFO_URL = "https://openidconnect.googleapis.com/v1/userinfo"
ENV_FILE = Path(__file__).resolve().parents[1] / ".env"


def _flag(name: str, default: str) -> bool:
    return os.environ.get(name, default).strip().lower() in {"1", "true", "yes", "on"}


def load_env_file(path: Path = ENV_FILE) -> bool:
    """Put the settings of the checkout's .env (see .env.example) into the environment, each only
    where the real environment leaves it unset: what the shell, systemd or a test exports wins.
    Every process of the console reads it here (gunicorn, the queue consumer, the flask command,
    which also reads it itself). FLASK_SKIP_DOTENV=1 skips it, as for Flask; the tests set it."""
    if _flag("FLASK_SKIP_DOTENV", "0") or not path.is_file():
        return False
    return load_dotenv(path, override=False, encoding="utf-8")


load_env_file()


# Where create_app() keeps the instance folder; relative SQLite paths are taken from it, as
# Flask-SQLAlchemy does.
DEFAULT_INSTANCE_PATH = Path(__file__).resolve().parents[1] / "instance"
# A name that huey keeps as written in its Redis keys (it drops anything else, so "a-b" and "ab"
# would share a queue) and that is safe as a folder name.
INSTANCE_NAME = re.compile(r"[A-Za-z0-9_]{1,64}")


def _database_identity(instance_path: str) -> str:
    """What this console's database is, without credentials: the absolute file of a SQLite
    database, or host, port and database name of a server. Rotating a password or respelling
    the URL (mysql:// or mysql+mysqldb://) leaves it unchanged."""
    url = database_url(os.environ.get("DATABASE_URL"), instance_path)
    sqlite_file = _sqlite_file(url, instance_path)
    if sqlite_file is not None:
        return f"sqlite:{sqlite_file}"
    scheme, _, rest = url.partition("://")
    location = rest.rsplit("@", 1)[-1].split("?", 1)[0]
    return f"{scheme.split('+', 1)[0]}:{location}"


def _sqlite_file(url: str, instance_path: str) -> Path | None:
    """The absolute path of a SQLite database file (None for a server or an in-memory one).
    A relative path is taken from the instance folder, where Flask-SQLAlchemy opens it."""
    if not url.startswith("sqlite:///"):
        return None
    raw = url.removeprefix("sqlite:///").split("?", 1)[0]
    if raw in {"", ":memory:"}:
        return None
    return (Path(instance_path) / raw).resolve()


def instance_name(instance_path: str | None = None) -> str:
    """A short name for this console, the same in every process that serves it: SIBOL_INSTANCE,
    else derived from its database. A Redis queue and the rate-limit keys carry it, so two
    consoles sharing one Redis never take each other's work or spend each other's limits."""
    named = os.environ.get("SIBOL_INSTANCE", "").strip()
    if named:
        if not INSTANCE_NAME.fullmatch(named):
            raise ValueError(
                f"SIBOL_INSTANCE={named!r}: use letters, digits and _ only (at most 64); "
                "it names a folder, a Redis queue and rate-limit keys"
            )
        return named
    identity = _database_identity(instance_path or str(DEFAULT_INSTANCE_PATH))
    return "sibol_" + hashlib.sha256(identity.encode()).hexdigest()[:12]


def state_dir(instance_path: str) -> Path:
    """Where this console keeps its own files (queue, rate-limit store, generated secret): the
    folder of its SQLite database, so each database has its own; for a server database, a folder
    named for the instance inside instance/. The default database lives in instance/ itself."""
    url = database_url(os.environ.get("DATABASE_URL"), instance_path)
    sqlite_file = _sqlite_file(url, instance_path)
    folder = sqlite_file.parent if sqlite_file else Path(instance_path) / instance_name(instance_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def instance_secret(instance_path: str) -> str:
    """The signing key generated once beside this console's database when SECRET_KEY is not set
    (two consoles on one checkout never accept each other's cookies).

    Every gunicorn worker and the queue consumer start at once: the key is written to a private
    file first and linked into place only if no other process got there first, so all of them
    read the one key that won and none reads a half-written file."""
    path = state_dir(instance_path) / "secret_key"
    if not path.exists():
        draft = path.with_name(f".secret_key.{os.getpid()}.{secrets.token_hex(4)}")
        # Owner-only permissions: whoever reads it can forge sessions.
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as fh:
                fh.write(secrets.token_hex(32))
                fh.flush()
                os.fsync(fh.fileno())
            try:
                os.link(draft, path)
            except FileExistsError:
                pass  # another process linked its key first: that one is the key
        finally:
            draft.unlink()
    return path.read_text().strip()


def database_url(raw: str | None, instance_path: str) -> str:
    """Normalise DATABASE_URL: SQLite by default, mysqlclient with utf8mb4 for MySQL."""
    if not raw:
        return f"sqlite:///{Path(instance_path) / 'sibol.sqlite3'}"
    if raw.startswith("sqlite:///") and not raw.startswith("sqlite:////"):
        rel = raw.removeprefix("sqlite:///")
        if rel.startswith("instance/"):
            # The documented default spelling is relative to the project, not the cwd.
            return f"sqlite:///{Path(instance_path) / rel.removeprefix('instance/')}"
        return raw
    if raw.startswith(("mysql://", "mariadb://")):
        raw = "mysql+mysqldb://" + raw.split("://", 1)[1]
    if raw.startswith("mysql+mysqldb://") and "charset=" not in raw:
        raw += ("&" if "?" in raw else "?") + "charset=utf8mb4"
    return raw


def queue_url(instance_path: str) -> str:
    """Where the task queue lives: SIBOL_QUEUE_URL; else the rate-limit Redis when there is one;
    else a SQLite file beside this console's database that every process of it shares."""
    url = os.environ.get("SIBOL_QUEUE_URL", "").strip()
    if url:
        return url
    limits_uri = os.environ.get("RATELIMIT_STORAGE_URI", "")
    if limits_uri.startswith(("redis://", "rediss://")):
        return limits_uri
    return f"sqlite:///{state_dir(instance_path) / 'queue.sqlite3'}"


def mail_retry_settings() -> tuple[int, int]:
    """(retries, seconds between them) for an e-mail that fails to send."""
    return (
        int(os.environ.get("SIBOL_MAIL_RETRIES", "5")),
        int(os.environ.get("SIBOL_MAIL_RETRY_DELAY", "60")),
    )


def mail_lease_seconds() -> int:
    """How long a consumer holds an e-mail it is sending before another may send it again (a
    consumer that died mid-send never lets go): longer than any SMTP exchange should take."""
    return int(os.environ.get("SIBOL_MAIL_LEASE_SECONDS", "300"))


REQUIRE_2FA_CHOICES = ("off", "admins", "all")


def require_2fa() -> str:
    """SIBOL_REQUIRE_2FA: `off` (default), `admins` (Admins and City Admins) or `all`; anything
    else stops the start, so a typo never leaves the second factor silently off."""
    value = os.environ.get("SIBOL_REQUIRE_2FA", "off").strip().lower() or "off"
    if value not in REQUIRE_2FA_CHOICES:
        raise ValueError(f"SIBOL_REQUIRE_2FA must be one of {', '.join(REQUIRE_2FA_CHOICES)}, not {value!r}")
    return value


def rate_limit_storage(instance_path: str) -> str:
    """RATELIMIT_STORAGE_URI, or a store beside this console's database that every worker
    process of it shares."""
    uri = os.environ.get("RATELIMIT_STORAGE_URI", "").strip()
    return uri or f"sibol-sqlite://{state_dir(instance_path).resolve() / 'ratelimits.sqlite3'}"


def load_settings(instance_path: str) -> dict:
    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "5000")
    mail_server = os.environ.get("MAIL_SERVER") or None
    origins = [o.strip().rstrip("/") for o in os.environ.get("SIBOL_CORS_ORIGINS", "").split(",")]
    return {
        "SECRET_KEY": os.environ.get("SECRET_KEY") or instance_secret(instance_path),
        "SQLALCHEMY_DATABASE_URI": database_url(os.environ.get("DATABASE_URL"), instance_path),
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True, "pool_recycle": 3600},
        # Seconds a SQLite write waits for another writer before the request answers 503.
        "SIBOL_DB_BUSY_TIMEOUT": float(os.environ.get("SIBOL_DB_BUSY_TIMEOUT", "5")),
        "HOST": host,
        "PORT": int(port),
        "SIBOL_BASE_URL": os.environ.get("SIBOL_BASE_URL", f"http://{host}:{port}").rstrip("/"),
        # The spec's own client, hosted elsewhere: e-mail links and Google redirects lead there.
        "SIBOL_CLIENT_URL": os.environ.get("SIBOL_CLIENT_URL", "").strip().rstrip("/") or None,
        # SMS reminders through a Semaphore-style gateway: off unless URL and key are set.
        "SIBOL_SMS_URL": os.environ.get("SIBOL_SMS_URL", "").strip() or None,
        "SIBOL_SMS_API_KEY": os.environ.get("SIBOL_SMS_API_KEY", "").strip() or None,
        "SIBOL_SMS_SENDER": os.environ.get("SIBOL_SMS_SENDER", "SIBOL").strip(),
        # The shared secret the gateway sends with the replies it forwards (STOP): no secret, no endpoint.
        "SIBOL_SMS_INBOUND_SECRET": os.environ.get("SIBOL_SMS_INBOUND_SECRET", "").strip() or None,
        "SIBOL_SMS_COST_CENTAVOS": int(os.environ.get("SIBOL_SMS_COST_CENTAVOS", "50")),  # per SMS
        "SIBOL_REMINDER_TRIES": int(os.environ.get("SIBOL_REMINDER_TRIES", "3")),
        "MAIL_SERVER": mail_server,
        "MAIL_PORT": int(os.environ.get("MAIL_PORT", "25")),
        "MAIL_USE_TLS": _flag("MAIL_USE_TLS", "0"),
        "MAIL_USE_SSL": _flag("MAIL_USE_SSL", "0"),
        "MAIL_USERNAME": os.environ.get("MAIL_USERNAME") or None,
        "MAIL_PASSWORD": os.environ.get("MAIL_PASSWORD") or None,
        "MAIL_DEFAULT_SENDER": os.environ.get("MAIL_DEFAULT_SENDER", "SIBOL <no-reply@localhost>"),
        "GOOGLE_OAUTH_CLIENT_ID": os.environ.get("GOOGLE_OAUTH_CLIENT_ID") or None,
        "GOOGLE_OAUTH_CLIENT_SECRET": os.environ.get("GOOGLE_OAUTH_CLIENT_SECRET") or None,
        "GOOGLE_OAUTH_AUTHORIZATION_URL": os.environ.get(
            "GOOGLE_OAUTH_AUTHORIZATION_URL", DEFAULT_AUTHORIZATION_URL
        ),
        "GOOGLE_OAUTH_TOKEN_URL": os.environ.get("GOOGLE_OAUTH_TOKEN_URL", DEFAULT_TOKEN_URL),
        "GOOGLE_OAUTH_USERINFO_URL": os.environ.get("GOOGLE_OAUTH_USERINFO_URL", DEFAULT_USERINFO_URL),
        "SIBOL_ADMIN_USERNAME": os.environ.get("SIBOL_ADMIN_USERNAME", "admin"),
        "SIBOL_ADMIN_PASSWORD": os.environ.get("SIBOL_ADMIN_PASSWORD") or None,
        "SIBOL_ADMIN_EMAIL": os.environ.get("SIBOL_ADMIN_EMAIL", "admin@localhost"),
        "SIBOL_SAMPLE_DATA": _flag("SIBOL_SAMPLE_DATA", "1"),
        "SIBOL_DEBUG_CODES": _flag("SIBOL_DEBUG_CODES", "0"),
        "SIBOL_CORS_ORIGINS": [o for o in origins if o],
        "RATELIMIT_STORAGE_URI": rate_limit_storage(instance_path),
        # Keys in a shared store (Redis) carry the instance: one console never spends another's.
        "RATELIMIT_KEY_PREFIX": instance_name(instance_path),
        "SIBOL_QUEUE_URL": queue_url(instance_path),
        # Run queued tasks inside the request (tests; a single process without a consumer).
        "SIBOL_QUEUE_IMMEDIATE": _flag("SIBOL_QUEUE_IMMEDIATE", "0"),
        # Off only for load benchmarks (bench/api_bench.py); never in production.
        "RATELIMIT_ENABLED": _flag("RATELIMIT_ENABLED", "1"),
        # Fixed settings that follow from the design rather than from the environment.
        "RATELIMIT_HEADERS_ENABLED": True,
        "RATELIMIT_STRATEGY": "moving-window",
        "WTF_CSRF_CHECK_DEFAULT": False,  # checked in a before_request: bearer calls skip it
        "WTF_CSRF_TIME_LIMIT": None,  # the token lives as long as the session
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": _flag("SESSION_COOKIE_SECURE", "0"),
        # How many reverse proxies to believe X-Forwarded-* from (0: none; nginx in front: 1).
        "SIBOL_TRUSTED_PROXIES": int(os.environ.get("SIBOL_TRUSTED_PROXIES", "0")),
        "REMEMBER_COOKIE_HTTPONLY": True,
        "MAX_CONTENT_LENGTH": 11 * 1024 * 1024,  # uploads are checked at 10 MB; this is the hard stop
        "COMPRESS_MIMETYPES": ["text/html", "application/json", "text/css", "text/plain"],
        "COMPRESS_ALGORITHM": ["br", "gzip"],
        # Streamed JSON (the machines plain list) too: Flask-Compress leaves gzip out by default.
        "COMPRESS_ALGORITHM_STREAMING": ["br", "gzip"],
        "COMPRESS_MIN_SIZE": 500,
        "SIBOL_TOKEN_TTL_HOURS": 24 * 7,
        # Who must sign in with a second factor (docs/auth.md): off, admins or all.
        "SIBOL_REQUIRE_2FA": require_2fa(),
        "SIBOL_UPLOAD_DIR": os.environ.get("SIBOL_UPLOAD_DIR") or str(Path(instance_path) / "uploads"),
        "SIBOL_DEFAULT_BARANGAY_NAME": "Barangay Fortune",
        # The barangay's time zone: every date and time people read; storage stays UTC.
        "SIBOL_TIMEZONE": os.environ.get("SIBOL_TIMEZONE") or "Asia/Manila",
        "SIBOL_OFFICE_PHONE": os.environ.get("SIBOL_OFFICE_PHONE", "(02) 8123 4567"),
        "SIBOL_OFFICE_EMAIL": os.environ.get("SIBOL_OFFICE_EMAIL", "sibol@barangay.local"),
        "SIBOL_OFFICE_ADDRESS": os.environ.get("SIBOL_OFFICE_ADDRESS", "Barangay Hall, Main Street"),
        # Telemetry (docs/telemetry.md)
        "SIBOL_TELEMETRY_RAW_DAYS": int(os.environ.get("SIBOL_TELEMETRY_RAW_DAYS", "90")),
        "SIBOL_TELEMETRY_SILENT_MINUTES": int(os.environ.get("SIBOL_TELEMETRY_SILENT_MINUTES", "15")),
        "SIBOL_TELEMETRY_RATE_LIMIT": os.environ.get("SIBOL_TELEMETRY_RATE_LIMIT", "120 per minute"),
        # MQTT (docs/telemetry.md): SIBOL_MQTT=1 runs a local Mosquitto; SIBOL_MQTT_URL names another.
        "SIBOL_MQTT": _flag("SIBOL_MQTT", "0"),
        "SIBOL_MQTT_URL": os.environ.get("SIBOL_MQTT_URL", "").strip(),
        "MQTT_PORT": int(os.environ.get("MQTT_PORT", "1883")),
        # The embedded broker saves its state after every change (0), or every N seconds.
        "SIBOL_MQTT_AUTOSAVE_SECONDS": int(os.environ.get("SIBOL_MQTT_AUTOSAVE_SECONDS", "0")),
        # The embedded broker's files; empty: this console's own folder (sibol.mqtt.settings.broker_dir).
        "SIBOL_MQTT_DIR": os.environ.get("SIBOL_MQTT_DIR", "").strip(),
        # Several subscribers share the stream through $share/<group>/... (docs/deploy.md).
        "SIBOL_MQTT_SHARE_GROUP": os.environ.get("SIBOL_MQTT_SHARE_GROUP", "").strip(),
        # Writer processes of a subscriber; empty: 1 on SQLite, 2 on a database server.
        "SIBOL_MQTT_WRITERS": os.environ.get("SIBOL_MQTT_WRITERS", "").strip(),
    }
