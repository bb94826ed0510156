from pathlib import Path

from sibol.config import database_url, instance_secret, load_settings


def test_default_database_is_sqlite_in_instance(tmp_path):
    assert database_url(None, str(tmp_path)) == f"sqlite:///{tmp_path / 'sibol.sqlite3'}"
    assert database_url("sqlite:///instance/sibol.sqlite3", str(tmp_path)) == (
        f"sqlite:///{tmp_path / 'sibol.sqlite3'}"
    )


def test_mysql_url_uses_mysqlclient_and_utf8mb4():
    assert (
        database_url("mysql://u:p@db:3306/sibol", "") == "mysql+mysqldb://u:p@db:3306/sibol?charset=utf8mb4"
    )
    assert database_url("mysql://u@db/s?ssl=1", "").endswith("?ssl=1&charset=utf8mb4")
    assert database_url("mysql://u@db/s?charset=latin1", "") == "mysql+mysqldb://u@db/s?charset=latin1"


def test_secret_key_is_generated_once_and_kept(tmp_path):
    first = instance_secret(str(tmp_path))
    assert len(first) == 64
    assert instance_secret(str(tmp_path)) == first
    assert (Path(tmp_path) / "secret_key").stat().st_mode & 0o077 == 0


def test_settings_read_from_environment(monkeypatch, tmp_path):
    env = {
        "SECRET_KEY": "s3cret",
        "DATABASE_URL": "mysql://root@127.0.0.1:3306/x",
        "HOST": "0.0.0.0",
        "PORT": "8080",
        "MAIL_SERVER": "smtp.example.org",
        "MAIL_PORT": "2525",
        "MAIL_USE_TLS": "1",
        "GOOGLE_OAUTH_CLIENT_ID": "cid",
        "GOOGLE_OAUTH_TOKEN_URL": "http://127.0.0.1:9/token",
        "SIBOL_ADMIN_USERNAME": "boss",
        "SIBOL_SAMPLE_DATA": "0",
        "SIBOL_DEBUG_CODES": "1",
        "SIBOL_CORS_ORIGINS": "https://app.example.org, http://localhost:3000/",
        "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:6379/0",
    }
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    s = load_settings(str(tmp_path))
    assert s["SECRET_KEY"] == "s3cret"
    assert s["SQLALCHEMY_DATABASE_URI"].startswith("mysql+mysqldb://root@127.0.0.1:3306/x")
    assert (s["HOST"], s["PORT"]) == ("0.0.0.0", 8080)
    assert s["SIBOL_BASE_URL"] == "http://0.0.0.0:8080"
    assert (s["MAIL_SERVER"], s["MAIL_PORT"], s["MAIL_USE_TLS"]) == ("smtp.example.org", 2525, True)
    assert s["GOOGLE_OAUTH_CLIENT_ID"] == "cid"
    assert s["GOOGLE_OAUTH_TOKEN_URL"] == "http://127.0.0.1:9/token"
    assert s["GOOGLE_OAUTH_AUTHORIZATION_URL"].startswith("https://accounts.google.com/")
    assert s["SIBOL_ADMIN_USERNAME"] == "boss"
    assert s["SIBOL_SAMPLE_DATA"] is False
    assert s["SIBOL_DEBUG_CODES"] is True
    assert s["SIBOL_CORS_ORIGINS"] == ["https://app.example.org", "http://localhost:3000"]
    assert s["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6379/0"


def test_defaults_without_environment(monkeypatch, tmp_path):
    for key in (
        "SECRET_KEY",
        "DATABASE_URL",
        "HOST",
        "PORT",
        "MAIL_SERVER",
        "SIBOL_BASE_URL",
        "SIBOL_SAMPLE_DATA",
        "SIBOL_DEBUG_CODES",
        "SIBOL_CORS_ORIGINS",
        "SIBOL_ADMIN_USERNAME",
        "SIBOL_ADMIN_EMAIL",
        "SIBOL_ADMIN_PASSWORD",
        "RATELIMIT_STORAGE_URI",
        "SIBOL_QUEUE_URL",
    ):
        monkeypatch.delenv(key, raising=False)
    s = load_settings(str(tmp_path))
    assert s["SIBOL_BASE_URL"] == "http://127.0.0.1:5000"
    assert s["MAIL_SERVER"] is None
    assert s["SIBOL_ADMIN_USERNAME"] == "admin" and s["SIBOL_ADMIN_EMAIL"] == "admin@localhost"
    assert s["SIBOL_ADMIN_PASSWORD"] is None
    assert s["SIBOL_SAMPLE_DATA"] is True and s["SIBOL_DEBUG_CODES"] is False
    assert s["SIBOL_CORS_ORIGINS"] == []
    # Shared by every worker process of this server (memory:// would count per process).
    assert s["RATELIMIT_STORAGE_URI"] == f"sibol-sqlite://{tmp_path / 'ratelimits.sqlite3'}"
    assert s["SIBOL_QUEUE_URL"] == f"sqlite:///{tmp_path / 'queue.sqlite3'}"
    assert s["SECRET_KEY"] == (tmp_path / "secret_key").read_text()


def test_client_url_is_optional_and_loses_its_trailing_slash(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", "k")
    monkeypatch.delenv("SIBOL_CLIENT_URL", raising=False)
    assert load_settings(str(tmp_path))["SIBOL_CLIENT_URL"] is None
    monkeypatch.setenv("SIBOL_CLIENT_URL", " https://app.example.org/ ")
    assert load_settings(str(tmp_path))["SIBOL_CLIENT_URL"] == "https://app.example.org"


def test_queue_follows_a_redis_rate_limit_store_unless_named(monkeypatch, tmp_path):
    monkeypatch.delenv("SIBOL_QUEUE_URL", raising=False)
    monkeypatch.setenv("RATELIMIT_STORAGE_URI", "redis://127.0.0.1:6379/3")
    assert load_settings(str(tmp_path))["SIBOL_QUEUE_URL"] == "redis://127.0.0.1:6379/3"
    monkeypatch.setenv("SIBOL_QUEUE_URL", "redis://127.0.0.1:6379/4")
    assert load_settings(str(tmp_path))["SIBOL_QUEUE_URL"] == "redis://127.0.0.1:6379/4"
