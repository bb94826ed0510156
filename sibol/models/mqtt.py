"""Tables of MQTT ingestion: each device's broker credential and its refused messages.

The broker (Mosquitto's dynamic-security plugin) checks a device's password against a salted
PBKDF2-SHA512 hash. The console keeps that hash beside the device key's SHA-256, so the broker's
whole client list can be rebuilt from the database; the raw key is never stored.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .telemetry import BigId

__all__ = ["MqttDevice", "MqttRefusal"]


class MqttDevice(Model):
    """A machine's identity at the broker (cleared on revoke) and its refused-message count."""

    __tablename__ = "mqtt_devices"
    machine_id: Mapped[int] = mapped_column(
        ForeignKey("machines.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    password_hash: Mapped[str | None] = mapped_column(String(100))  # base64 PBKDF2-SHA512
    salt: Mapped[str | None] = mapped_column(String(40))  # base64
    iterations: Mapped[int | None] = mapped_column(Integer)
    refused_count: Mapped[int] = mapped_column(Integer, default=0)
    last_refused_at: Mapped[datetime | None] = mapped_column(DateTime)


class MqttRefusal(Model):
    """One refused message (time and reason); the newest 20 per machine are kept."""

    __tablename__ = "mqtt_refusals"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    machine_id: Mapped[int] = mapped_column(ForeignKey("machines.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime)
    reason: Mapped[str] = mapped_column(String(300))

    __table_args__ = (Index("ix_mqtt_refusals_machine_id", "machine_id", "id"),)
