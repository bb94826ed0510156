"""Tables of MQTT ingestion: each device's broker credential, its refused messages, and the
messages no handler could store (dead letters).

The broker (Mosquitto's dynamic-security plugin) checks a device's password against a salted
PBKDF2-SHA512 hash. The console keeps that hash beside the device key's SHA-256, so the broker's
whole client list can be rebuilt from the database; the raw key is never stored.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.dialects.mysql import MEDIUMBLOB
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .telemetry import BigId

__all__ = ["MqttDeadLetter", "MqttDevice", "MqttRefusal"]

SNIPPET = 512  # bytes of a refused payload kept beside its reason


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
    """One refused message (time, reason, its first SNIPPET bytes); the newest 20 per machine are kept."""

    __tablename__ = "mqtt_refusals"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    machine_id: Mapped[int] = mapped_column(ForeignKey("machines.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime)
    reason: Mapped[str] = mapped_column(String(300))
    payload: Mapped[bytes | None] = mapped_column(LargeBinary(SNIPPET))

    __table_args__ = (Index("ix_mqtt_refusals_machine_id", "machine_id", "id"),)


class MqttDeadLetter(Model):
    """A message whose handler failed on it alone (not a refusal: an error of ours), kept whole
    with the error, so that it can be looked at and sent again. Kept 30 days, capped per machine."""

    __tablename__ = "mqtt_dead_letters"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    machine_id: Mapped[int] = mapped_column(ForeignKey("machines.id", ondelete="CASCADE"))
    suffix: Mapped[str] = mapped_column(String(100))  # the topic after sibol/v1/machines/{id}/
    at: Mapped[datetime] = mapped_column(DateTime)
    error: Mapped[str] = mapped_column(String(300))
    payload: Mapped[bytes] = mapped_column(LargeBinary().with_variant(MEDIUMBLOB(), "mysql"))

    __table_args__ = (
        Index("ix_mqtt_dead_letters_machine_id", "machine_id", "id"),
        Index("ix_mqtt_dead_letters_at", "at"),
    )
