"""Device keys: issued to a machine, shown once, stored as a SHA-256, replaced or revoked."""

from __future__ import annotations

import hashlib
import secrets

from flask_babel import gettext as _
from sqlalchemy import select

from ..data.rows import get_by_id
from ..errors import NotFound, Unauthorized
from ..extensions import db
from ..models import Machine, utcnow
from ..models.telemetry import DeviceKey
from . import mqtt

KEY_PREFIX = "sdk_"
MAX_KEY_LENGTH = 200


def hash_key(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def get_machine(machine_id: int | str | None) -> Machine:
    """The machine, or NotFound for unknown and malformed ids."""
    machine = get_by_id(Machine, machine_id)
    if machine is None:
        raise NotFound(_("Machine not found."))
    return machine


def issue_key(machine_id: int | str, *, actor_id: int | None) -> str:
    """A new key for the machine; any older key stops working at once. Returns the raw key."""
    machine = get_machine(machine_id)
    raw = KEY_PREFIX + secrets.token_urlsafe(32)
    device = db.session.get(DeviceKey, machine.id)
    if device is None:
        device = DeviceKey(machine_id=machine.id)
        db.session.add(device)
    device.key_hash = hash_key(raw)
    device.issued_at = utcnow()
    device.issued_by_id = actor_id
    device.revoked_at = None
    db.session.commit()
    mqtt.key_changed(machine.id, raw)  # the broker takes the new key and drops the old one's connection
    return raw


def revoke_key(machine_id: int | str) -> None:
    """Revoke the machine's key. NotFound when it has none."""
    machine = get_machine(machine_id)
    device = db.session.get(DeviceKey, machine.id)
    if device is None or device.key_hash is None:
        raise NotFound(_("This machine has no device key."))
    device.key_hash = None
    device.revoked_at = utcnow()
    db.session.commit()
    mqtt.key_changed(machine.id, None)  # the broker drops the device's connection


def device_for_header(header: str | None) -> DeviceKey:
    """The device named by `Authorization: Device <key>`, or Unauthorized."""
    scheme, _sep, raw = (header or "").partition(" ")
    raw = raw.strip()
    if scheme.lower() != "device" or not raw or len(raw) > MAX_KEY_LENGTH:
        raise Unauthorized(_("Send the machine's device key: Authorization: Device <key>."))
    device = db.session.scalar(select(DeviceKey).where(DeviceKey.key_hash == hash_key(raw)))
    if device is None:
        raise Unauthorized(_("Unknown or revoked device key."))
    return device


def device_states(machine_ids: list[int]) -> dict[int, DeviceKey]:
    """machine id -> its DeviceKey row, for the machines that have one."""
    if not machine_ids:
        return {}
    rows = db.session.scalars(select(DeviceKey).where(DeviceKey.machine_id.in_(machine_ids)))
    return {row.machine_id: row for row in rows}
