"""Device keys: issued to a machine, shown once, stored as a SHA-256, replaced or revoked.

`authenticate` names the machine of an `Authorization: Device <key>` header. Each worker keeps
the answers it found for DEVICE_CACHE_SECONDS, so a device that reports every few seconds costs
no key lookup; a revoked or replaced key is refused by every worker at most that long after.
Routes that write for the device (POST /api/telemetry) check the key again in their own write
(`key_hash = ?`), so a reading is never stored under a key revoked before it commits.

`device_route` declares a lean device route (see sibol/devices/http.py): no page session, CSRF,
tenancy, access or template machinery, just the key, the body and the service.

`on_key_changed(listener)`: listener(machine_id, raw_key or None) runs after each issue and
revoke has committed (the broker's side registers one: sibol/telemetry/mqtt/__init__.py).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import select

from ..data.rows import get_machine
from ..errors import NotFound, Unauthorized
from ..extensions import db
from ..identity.authorization import credentials
from ..models import utcnow
from ..models.telemetry import DeviceKey

KEY_PREFIX = "sdk_"
MAX_KEY_LENGTH = 200
# How long a worker trusts a key it has checked: the bound on seeing a revocation (5 s promised).
DEVICE_CACHE_SECONDS = 2.0
DEVICE_CACHE_SIZE = 200_000  # more than the national fleet (120,305 machines)


@dataclass(frozen=True, slots=True)
class Device:
    """The machine a request's device key names, and the key's hash (for a write's re-check)."""

    machine_id: int
    key_hash: str


KeyListener = Callable[[int, "str | None"], object]
_listeners: list[KeyListener] = []


def on_key_changed(listener: KeyListener) -> KeyListener:
    """Have `listener(machine_id, raw_key)` called after a key is issued (raw_key) or revoked (None)."""
    if listener not in _listeners:
        _listeners.append(listener)
    return listener


def _key_changed(machine_id: int, raw: str | None) -> None:
    for listener in _listeners:
        listener(machine_id, raw)


_cache: dict[str, tuple[int, float]] = {}  # key hash -> (machine id, monotonic time checked)
_cache_lock = threading.Lock()


def hash_key(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def issue_key(machine_id: int | str, *, actor_id: int | None) -> str:
    """A new key for the machine; any older key stops working at once. Returns the raw key."""
    machine = get_machine(machine_id)
    raw = KEY_PREFIX + secrets.token_urlsafe(32)
    device = db.session.get(DeviceKey, machine.id)
    if device is None:
        device = DeviceKey(machine_id=machine.id)
        db.session.add(device)
    if device.key_hash:
        forget(device.key_hash)
    device.key_hash = hash_key(raw)
    device.issued_at = utcnow()
    device.issued_by_id = actor_id
    device.revoked_at = None
    db.session.commit()
    _key_changed(machine.id, raw)  # e.g. the broker takes the new key and drops the old one's connection
    return raw


def revoke_key(machine_id: int | str) -> None:
    """Revoke the machine's key. NotFound when it has none."""
    machine = get_machine(machine_id)
    device = db.session.get(DeviceKey, machine.id)
    if device is None or device.key_hash is None:
        raise NotFound(_("This machine has no device key."))
    forget(device.key_hash)
    device.key_hash = None
    device.revoked_at = utcnow()
    db.session.commit()
    _key_changed(machine.id, None)  # e.g. the broker drops the device's connection


def device_for_header(header: str | None) -> DeviceKey:
    """The device's row named by `Authorization: Device <key>` (no cache), or Unauthorized."""
    raw = _raw_key(header)
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


def _raw_key(header: str | None) -> str:
    raw = credentials(header, "Device")
    if raw is None or len(raw) > MAX_KEY_LENGTH:
        raise Unauthorized(_("Send the machine's device key: Authorization: Device <key>."))
    return raw


def authenticate(header: str | None) -> Device:
    """The device named by `Authorization: Device <key>` (checked at most DEVICE_CACHE_SECONDS
    ago by this worker), or Unauthorized. Reads the database only on a cache miss."""
    digest = hash_key(_raw_key(header))
    now = time.monotonic()
    hit = _cache.get(digest)
    if hit is not None and now - hit[1] < DEVICE_CACHE_SECONDS:
        return Device(hit[0], digest)
    machine_id = db.session.scalar(select(DeviceKey.machine_id).where(DeviceKey.key_hash == digest))
    if machine_id is None:
        forget(digest)
        raise Unauthorized(_("Unknown or revoked device key."))
    with _cache_lock:
        if len(_cache) >= DEVICE_CACHE_SIZE:
            _cache.clear()  # a full cache starts again: the next requests read their keys once more
        _cache[digest] = (machine_id, now)
    return Device(machine_id, digest)


def rate_key(header: str | None) -> str:
    """Whose count a device request adds to in the per-device rate limit: its machine's
    ("device:<id>"), however the header spells the scheme or spaces the key, so a device cannot
    earn a fresh count by respelling it. A key that names no machine counts on its own digest."""
    try:
        return f"device:{authenticate(header).machine_id}"
    except Unauthorized:
        return "device-key:" + hash_key(credentials(header, "Device") or "")[:32]


def forget(digest: str) -> None:
    """Drop a key from this worker's cache (revoked, replaced, or refused by a write)."""
    with _cache_lock:
        _cache.pop(digest, None)


# The lean device routes: (method, path pattern) -> handler; served by http.DeviceRoutes.
DeviceHandler = Callable[..., tuple[dict, int]]
DEVICE_ROUTES: dict[tuple[str, str], DeviceHandler] = {}


def device_route(method: str, pattern: str) -> Callable[[DeviceHandler], DeviceHandler]:
    """Declare a route that a device calls with its key, served without the page machinery.

    The handler is called as handler(device, request, **path_ids) inside a request context
    (flask.request works; current_user is nobody) and returns (json_dict, status). `pattern` is a
    full path whose `<name>` parts match a decimal id, passed as an int: for example
    "/api/device/commands/<command_id>/result". A ServiceError becomes its JSON 4xx; the handler
    runs again after a retryable database error, so it must commit once, at its end. Rate limit:
    SIBOL_TELEMETRY_RATE_LIMIT per device (rate_key), over all lean device routes.

        @keys.device_route("GET", "/api/device/commands")
        def pending(device: keys.Device, request) -> tuple[dict, int]:
            return {"data": commands.pending_for(device.machine_id)}, 200
    """

    def register(handler: DeviceHandler) -> DeviceHandler:
        DEVICE_ROUTES[(method.upper(), pattern)] = handler
        return handler

    return register
