"""Backup, restore and a content digest that proves a restore gives back the same data.

SQLite: the online backup API (a consistent copy while the app keeps serving).
MySQL/MariaDB: mysqldump --single-transaction (a consistent InnoDB snapshot), restored with mysql.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import URL, Engine

from ..extensions import db


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise ValueError("an in-memory SQLite database cannot be backed up")
    return Path(url.database)


def _mysql_args(url: URL) -> tuple[list[str], dict[str, str]]:
    args = ["-h", url.host or "127.0.0.1", "-P", str(url.port or 3306), "-u", url.username or "root"]
    env = dict(os.environ)
    if url.password:
        env["MYSQL_PWD"] = str(url.password)  # not on the command line, where ps would show it
    return args, env


def _database(url: URL) -> str:
    if not url.database:
        raise RuntimeError("the database URL names no database")
    return url.database


def _client(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError(f"none of {', '.join(names)} is installed (Debian: mariadb-client)")


def backup(engine: Engine, target: Path) -> Path:
    """Write a consistent copy of the database to target (a .sqlite3 file or a .sql dump)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    url = engine.url
    if url.get_backend_name() == "sqlite":
        source = sqlite3.connect(_sqlite_path(url))
        dest = sqlite3.connect(target)
        try:
            source.backup(dest)
        finally:
            dest.close()
            source.close()
        return target
    args, env = _mysql_args(url)
    with open(target, "wb") as out:
        subprocess.run(  # noqa: S603 - fixed program, arguments from our own configuration
            [
                _client("mariadb-dump", "mysqldump"),
                *args,
                "--single-transaction",
                "--routines",
                "--default-character-set=utf8mb4",
                _database(url),
            ],
            stdout=out,
            env=env,
            check=True,
        )
    return target


def restore(engine: Engine, source: Path) -> None:
    """Replace the database's contents with a backup made by backup()."""
    url = engine.url
    engine.dispose()
    if url.get_backend_name() == "sqlite":
        src = sqlite3.connect(source)
        dest = sqlite3.connect(_sqlite_path(url))
        try:
            src.backup(dest)
        finally:
            dest.close()
            src.close()
        return
    args, env = _mysql_args(url)
    with open(source, "rb") as dump:
        subprocess.run(  # noqa: S603
            [_client("mariadb", "mysql"), *args, "--default-character-set=utf8mb4", _database(url)],
            stdin=dump,
            env=env,
            check=True,
        )


def _normal(value) -> str:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    if isinstance(value, bytes):
        return value.hex()
    return repr(value)


def digest() -> dict[str, str]:
    """SHA-256 of every table's rows in primary-key order, plus the row counts."""
    result: dict[str, str] = {}
    with db.engine.connect() as conn:
        for table in db.metadata.sorted_tables:
            h = hashlib.sha256()
            count = 0
            for row in conn.execute(select(table).order_by(*table.primary_key.columns)):
                h.update("\x1f".join(_normal(v) for v in row).encode())
                h.update(b"\x1e")
                count += 1
            result[table.name] = f"{count}:{h.hexdigest()}"
    return result
