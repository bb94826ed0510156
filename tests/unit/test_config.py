import multiprocessing
import os
import re
from pathlib import Path
from unittest import mock

import pytest

from sibol.config import (
    ENV_FILE,
    database_url,
    instance_name,
    instance_secret,
    load_env_file,
    load_settings,
    state_dir,
)
from sibol.jobs.queue import make_huey


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
        "SIBOL_INSTANCE",
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


@pytest.fixture
def bare_env(monkeypatch):
    """No setting that moves the instance's files: each test names what it sets."""
    for key in ("DATABASE_URL", "SIBOL_INSTANCE", "SECRET_KEY", "RATELIMIT_STORAGE_URI", "SIBOL_QUEUE_URL"):
        monkeypatch.delenv(key, raising=False)
    return monkeypatch


def test_two_databases_in_two_folders_keep_everything_apart(bare_env, tmp_path):
    checkout_instance = tmp_path / "instance"
    settings = {}
    for site in ("north", "south"):
        bare_env.setenv("DATABASE_URL", f"sqlite:///{tmp_path / site / 'sibol.sqlite3'}")
        settings[site] = load_settings(str(checkout_instance))
    north, south = settings["north"], settings["south"]
    assert north["SIBOL_QUEUE_URL"] == f"sqlite:///{tmp_path / 'north' / 'queue.sqlite3'}"
    assert south["SIBOL_QUEUE_URL"] == f"sqlite:///{tmp_path / 'south' / 'queue.sqlite3'}"
    assert north["RATELIMIT_STORAGE_URI"] == f"sibol-sqlite://{tmp_path / 'north' / 'ratelimits.sqlite3'}"
    assert south["RATELIMIT_STORAGE_URI"] == f"sibol-sqlite://{tmp_path / 'south' / 'ratelimits.sqlite3'}"
    assert north["SECRET_KEY"] == (tmp_path / "north" / "secret_key").read_text()
    assert south["SECRET_KEY"] == (tmp_path / "south" / "secret_key").read_text()
    assert north["SECRET_KEY"] != south["SECRET_KEY"]
    assert north["RATELIMIT_KEY_PREFIX"] != south["RATELIMIT_KEY_PREFIX"]
    # Nothing of either lands in the checkout's own instance folder.
    assert not (checkout_instance / "secret_key").exists()
    assert not (checkout_instance / "queue.sqlite3").exists()


def test_the_same_database_is_the_same_instance_in_every_process(bare_env, tmp_path):
    bare_env.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'site' / 'sibol.sqlite3'}")
    first = load_settings(str(tmp_path / "instance"))
    again = load_settings(str(tmp_path / "instance"))
    assert first["SECRET_KEY"] == again["SECRET_KEY"]
    assert first["RATELIMIT_KEY_PREFIX"] == again["RATELIMIT_KEY_PREFIX"]
    assert first["SIBOL_QUEUE_URL"] == again["SIBOL_QUEUE_URL"]


def test_a_relative_sqlite_path_keeps_its_files_where_the_database_is_opened(bare_env, tmp_path):
    # Flask-SQLAlchemy opens a relative SQLite path inside the instance folder, not the cwd.
    bare_env.setenv("DATABASE_URL", "sqlite:///sites/north.sqlite3")
    bare_env.chdir(tmp_path)
    assert state_dir(str(tmp_path / "instance")) == tmp_path / "instance" / "sites"
    bare_env.setenv("DATABASE_URL", "sqlite:///instance/sibol.sqlite3")
    assert state_dir(str(tmp_path / "instance")) == tmp_path / "instance"


def test_a_server_database_keeps_its_files_in_a_folder_named_for_the_instance(bare_env, tmp_path):
    bare_env.setenv("DATABASE_URL", "mysql://sibol:pw@db.internal:3306/north")
    name = instance_name(str(tmp_path))
    assert state_dir(str(tmp_path)) == tmp_path / name
    s = load_settings(str(tmp_path))
    assert s["SIBOL_QUEUE_URL"] == f"sqlite:///{tmp_path / name / 'queue.sqlite3'}"
    assert s["SECRET_KEY"] == (tmp_path / name / "secret_key").read_text()


def test_instance_name_follows_the_database_not_its_password_or_spelling(bare_env, tmp_path):
    def name_for(url: str) -> str:
        bare_env.setenv("DATABASE_URL", url)
        return instance_name(str(tmp_path))

    north = name_for("mysql://sibol:old@db.internal:3306/north")
    assert north.startswith("sibol_") and "old" not in north
    # A rotated password or another spelling of the driver is the same database.
    assert name_for("mysql://sibol:new-pass@db.internal:3306/north") == north
    assert name_for("mysql+mysqldb://sibol:old@db.internal:3306/north?charset=utf8mb4") == north
    assert name_for("mysql://sibol:old@db.internal:3306/south") != north
    assert name_for("mysql://sibol:old@db2.internal:3306/north") != north
    bare_env.delenv("DATABASE_URL")
    default = instance_name(str(tmp_path))
    assert name_for(f"sqlite:///{tmp_path / 'sibol.sqlite3'}") == default


def test_sibol_instance_names_it_and_must_be_a_plain_word(bare_env, tmp_path):
    bare_env.setenv("DATABASE_URL", "mysql://u@db/north")
    bare_env.setenv("SIBOL_INSTANCE", "barangay_fortune")
    assert instance_name(str(tmp_path)) == "barangay_fortune"
    assert state_dir(str(tmp_path)) == tmp_path / "barangay_fortune"
    assert load_settings(str(tmp_path))["RATELIMIT_KEY_PREFIX"] == "barangay_fortune"
    # A hyphen would vanish from huey's queue key ("a-b" and "ab" would share one); a slash
    # would lead out of instance/.
    for bad in ("barangay-fortune", "../elsewhere", "a" * 65):
        bare_env.setenv("SIBOL_INSTANCE", bad)
        with pytest.raises(ValueError, match="SIBOL_INSTANCE"):
            load_settings(str(tmp_path))


def test_a_redis_queue_and_rate_limit_keys_carry_the_instance(bare_env, tmp_path):
    bare_env.setenv("RATELIMIT_STORAGE_URI", "redis://127.0.0.1:1/0")  # never connected to here
    keys = {}
    for site in ("north", "south"):
        bare_env.setenv("DATABASE_URL", f"sqlite:///{tmp_path / site / 'sibol.sqlite3'}")
        s = load_settings(str(tmp_path / "instance"))
        assert s["SIBOL_QUEUE_URL"] == "redis://127.0.0.1:1/0"
        queue = make_huey(s["SIBOL_QUEUE_URL"], instance_name(str(tmp_path / "instance")))
        keys[site] = (queue.storage.queue_key, s["RATELIMIT_KEY_PREFIX"])
        assert keys[site][0] == f"huey.redis.{s['RATELIMIT_KEY_PREFIX']}"
    assert keys["north"] != keys["south"]


def _secret_in_child(instance_path: str, start, out) -> None:
    start.wait()
    out.put(instance_secret(instance_path))


def test_processes_starting_together_all_read_the_one_generated_secret(bare_env, tmp_path):
    # gunicorn's workers and the queue consumer each load the settings at the same moment; a few
    # rounds, since a lost race shows only now and then.
    ctx = multiprocessing.get_context("fork")
    for round_no in range(6):
        folder = tmp_path / f"round{round_no}"
        start, out = ctx.Event(), ctx.Queue()
        procs = [ctx.Process(target=_secret_in_child, args=(str(folder), start, out)) for _ in range(8)]
        for proc in procs:
            proc.start()
        start.set()
        for proc in procs:
            proc.join(timeout=30)
        assert [proc.exitcode for proc in procs] == [0] * 8
        keys = [out.get(timeout=5) for _ in procs]
        assert len(set(keys)) == 1 and len(keys[0]) == 64
        assert keys[0] == (folder / "secret_key").read_text()
        assert sorted(p.name for p in folder.iterdir()) == ["secret_key"]  # no drafts left behind


def test_the_env_file_fills_in_only_what_the_environment_leaves_unset(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# comments and blank lines are fine\n\nSIBOL_OFFICE_PHONE=(02) 555 0101\n"
        'SIBOL_OFFICE_EMAIL="office@from-the-file.test"\nMAIL_SERVER=smtp.from-the-file.test\n'
    )
    with mock.patch.dict(os.environ, {"MAIL_SERVER": "smtp.exported.test", "SECRET_KEY": "k"}):
        os.environ.pop("FLASK_SKIP_DOTENV", None)
        os.environ.pop("SIBOL_OFFICE_PHONE", None)
        os.environ.pop("SIBOL_OFFICE_EMAIL", None)
        assert load_env_file(env_file) is True
        s = load_settings(str(tmp_path))
        assert s["SIBOL_OFFICE_PHONE"] == "(02) 555 0101"
        assert s["SIBOL_OFFICE_EMAIL"] == "office@from-the-file.test"
        assert s["MAIL_SERVER"] == "smtp.exported.test"  # the real environment wins


def test_the_env_file_is_skipped_when_asked_or_missing(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("SIBOL_OFFICE_PHONE=from-the-file\n")
    with mock.patch.dict(os.environ, {"FLASK_SKIP_DOTENV": "1"}):
        os.environ.pop("SIBOL_OFFICE_PHONE", None)
        assert load_env_file(env_file) is False
        assert "SIBOL_OFFICE_PHONE" not in os.environ
        os.environ.pop("FLASK_SKIP_DOTENV")
        assert load_env_file(tmp_path / "none" / ".env") is False
        assert "SIBOL_OFFICE_PHONE" not in os.environ


def test_the_checkout_reads_its_env_file_and_ignores_none_of_the_example():
    # Every variable the example names is one the app reads.
    example = (ENV_FILE.parent / ".env.example").read_text()
    names = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", example, flags=re.M))
    source = "\n".join(p.read_text() for p in (ENV_FILE.parent / "sibol").rglob("*.py"))
    assert names and {n for n in names if f'"{n}"' not in source} == set()
