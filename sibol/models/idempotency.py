"""The answers kept for retried writes: one row per (caller, Idempotency-Key or form id).

A row is taken (status still empty) before the request runs and filled with the answer after,
so a second request with the same key finds it: running (409), the same body (the answer again)
or another body (422). The key itself is stored as its SHA-256, so two keys that differ only in
case stay two keys on a case-insensitive MariaDB collation.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Integer, LargeBinary, String, UniqueConstraint
from sqlalchemy.dialects import mysql
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model

__all__ = ["IdempotencyRecord"]

# MEDIUMBLOB on MariaDB (up to 16 MB; BLOB stops at 64 KB), BLOB on SQLite.
AnswerBytes = LargeBinary().with_variant(mysql.MEDIUMBLOB(), "mysql", "mariadb")


class IdempotencyRecord(Model):
    __tablename__ = "idempotency_records"
    id: Mapped[int] = mapped_column(primary_key=True)
    owner: Mapped[str] = mapped_column(String(80))  # "account:<id>" or "device:<hash of its key>"
    key_hash: Mapped[str] = mapped_column(String(64))
    fingerprint: Mapped[str] = mapped_column(String(64))  # method, path and body
    claim: Mapped[str] = mapped_column(String(32))  # the request that holds the row
    status: Mapped[int | None] = mapped_column(Integer)  # empty while the first request runs
    content_type: Mapped[str | None] = mapped_column(String(120))
    location: Mapped[str | None] = mapped_column(String(500))
    body: Mapped[bytes | None] = mapped_column(AnswerBytes)
    created_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (UniqueConstraint("owner", "key_hash", name="uq_idempotency_records_owner_key_hash"),)
