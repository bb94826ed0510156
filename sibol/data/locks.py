"""Serialising a check with the write it guards, on SQLite and on MariaDB/MySQL."""

from __future__ import annotations

from ..extensions import db


def take_write_lock() -> None:
    """On SQLite, make this transaction the only writer from now on (BEGIN IMMEDIATE), so what it
    reads next cannot change before it commits; two such transactions run one after the other.

    SQLite ignores SELECT ... FOR UPDATE, so without this two requests could both pass a check
    and both write. On MariaDB/MySQL this does nothing: the caller's SELECT ... FOR UPDATE locks
    the rows it reads (and reads their latest committed version)."""
    conn = db.session.connection()
    if conn.dialect.name != "sqlite":
        return
    raw = conn.connection.driver_connection
    if raw is not None and raw.in_transaction:
        return  # this transaction has written already, so it holds the write lock
    conn.exec_driver_sql("BEGIN IMMEDIATE")
