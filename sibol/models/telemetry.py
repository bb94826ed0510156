"""Tables of the telemetry feature: device keys, readings, rollups, thresholds, alerts, notifications.

Every time is naive UTC (MySQL DATETIME keeps no zone). A reading is one row per (machine, ts):
the unique key makes a resent reading a duplicate. Hourly and daily rollups keep min, max, sum
and count of every metric for good, one row per machine and period; raw readings are purged
after SIBOL_TELEMETRY_RAW_DAYS.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .core import TenantOwned, utcnow

__all__ = [
    "METRICS",
    "Alert",
    "DeviceKey",
    "Notification",
    "NotificationPreference",
    "Reading",
    "ROLLUP_CELL_NAMES",
    "SERIES_METRICS",
    "Rollup",
    "RollupCells",
    "Threshold",
]

# The numbers a reading may carry, in display order.
METRICS = (
    "weight_kg",
    "ph",
    "temperature_c",
    "pressure_kpa",
    "methane_pct",
    "voltage_v",
    "current_a",
    "water_l",
)
SERIES_METRICS = (*METRICS, "power_w")  # the rollups also keep power_w = voltage_v x current_a
BigId = BigInteger().with_variant(Integer(), "sqlite")  # SQLite autoincrements INTEGER keys only


class DeviceKey(TenantOwned, Model):
    """A machine's controller: its key (SHA-256 only) and when it last reported."""

    __tablename__ = "device_keys"
    machine_id: Mapped[int] = mapped_column(
        ForeignKey("machines.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    key_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    issued_at: Mapped[datetime | None] = mapped_column(DateTime)
    issued_by_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime)
    last_reading_at: Mapped[datetime | None] = mapped_column(DateTime)  # newest reading's ts
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime, index=True)  # server time


class Reading(Model):
    __tablename__ = "telemetry_readings"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    machine_id: Mapped[int] = mapped_column(ForeignKey("machines.id", ondelete="CASCADE"))
    ts: Mapped[datetime] = mapped_column(DateTime)
    weight_kg: Mapped[float | None] = mapped_column(Float)
    ph: Mapped[float | None] = mapped_column(Float)
    temperature_c: Mapped[float | None] = mapped_column(Float)
    pressure_kpa: Mapped[float | None] = mapped_column(Float)
    methane_pct: Mapped[float | None] = mapped_column(Float)
    voltage_v: Mapped[float | None] = mapped_column(Float)
    current_a: Mapped[float | None] = mapped_column(Float)
    water_l: Mapped[float | None] = mapped_column(Float)

    __table_args__ = (
        UniqueConstraint("machine_id", "ts", name="uq_telemetry_readings_machine_id_ts"),
        Index("ix_telemetry_readings_ts", "ts"),
    )


class RollupCells(NamedTuple):
    """The four columns of one metric in a rollup row (or their names)."""

    min: Any
    max: Any
    sum: Any
    n: Any


class Rollup(Model):
    """One machine's readings over one UTC hour ('h') or day ('d'): for each series metric its
    min, max, sum and count (`{metric}_min`, `_max`, `_sum`, `_n`). A metric no reading of the
    period carried has n = 0 and NULL min, max and sum. One row per (machine, period, start), so
    a reading folds into two rows (its hour and its day), whatever metrics it carries."""

    __tablename__ = "telemetry_rollups"
    machine_id: Mapped[int] = mapped_column(
        ForeignKey("machines.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    period: Mapped[str] = mapped_column(String(1), primary_key=True)
    start: Mapped[datetime] = mapped_column(DateTime, primary_key=True)

    @classmethod
    def cells(cls, metric: str) -> RollupCells:
        """The min, max, sum and count columns of `metric` (a KeyError for an unknown one)."""
        return RollupCells(*(getattr(cls, name) for name in ROLLUP_CELL_NAMES[metric]))


# Every series metric's four cells, in SERIES_METRICS order (the table's column order too).
ROLLUP_CELL_NAMES: dict[str, RollupCells] = {
    m: RollupCells(f"{m}_min", f"{m}_max", f"{m}_sum", f"{m}_n") for m in SERIES_METRICS
}
for _names in ROLLUP_CELL_NAMES.values():
    for _name in _names[:3]:
        setattr(Rollup, _name, mapped_column(_name, Float, nullable=True))
    setattr(Rollup, _names.n, mapped_column(_names.n, Integer, nullable=False, default=0, server_default="0"))


class Threshold(TenantOwned, Model):
    """A machine's own healthy range for one metric (the defaults live in code)."""

    __tablename__ = "telemetry_thresholds"
    machine_id: Mapped[int] = mapped_column(
        ForeignKey("machines.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    metric: Mapped[str] = mapped_column(String(20), primary_key=True)
    low: Mapped[float] = mapped_column(Float)
    high: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)
    updated_by_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))


class Alert(TenantOwned, Model):
    """One out-of-range (or "silent") episode of a machine's metric; at most one open per pair."""

    __tablename__ = "telemetry_alerts"
    id: Mapped[int] = mapped_column(primary_key=True)
    machine_id: Mapped[int] = mapped_column(ForeignKey("machines.id", ondelete="CASCADE"))
    metric: Mapped[str] = mapped_column(String(20))
    value: Mapped[float | None] = mapped_column(Float)
    low: Mapped[float | None] = mapped_column(Float)
    high: Mapped[float | None] = mapped_column(Float)
    opened_at: Mapped[datetime] = mapped_column(DateTime)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime, index=True)
    in_range_streak: Mapped[int] = mapped_column(SmallInteger, default=0)
    acknowledged_at: Mapped[datetime | None] = mapped_column(DateTime)
    acknowledged_by_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    acknowledged_by_name: Mapped[str | None] = mapped_column(String(210))

    __table_args__ = (
        Index("ix_telemetry_alerts_machine_metric", "machine_id", "metric", "closed_at"),
        Index("ix_telemetry_alerts_barangay_closed", "barangay_id", "closed_at"),
    )


class Notification(Model):
    __tablename__ = "notifications"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(30))
    title: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(String(1000), default="")
    link: Mapped[str] = mapped_column(String(300), default="")
    ref: Mapped[str | None] = mapped_column(String(60))  # dedupe key for periodic events
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    read_at: Mapped[datetime | None] = mapped_column(DateTime)
    in_console: Mapped[bool] = mapped_column(Boolean, default=True)
    email_state: Mapped[str] = mapped_column(String(10), default="none")  # none, pending, sent, failed

    __table_args__ = (
        Index("ix_notifications_account_read", "account_id", "read_at", "id"),
        Index("ix_notifications_email_state", "email_state"),
        Index("ix_notifications_kind_ref", "kind", "ref"),
    )


class NotificationPreference(Model):
    __tablename__ = "notification_preferences"
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    kind: Mapped[str] = mapped_column(String(30), primary_key=True)
    channel: Mapped[str] = mapped_column(String(10))  # console, email, both
