"""SIBOL's own device API: the routes a controller flashed for SIBOL's backend already calls.

Paths, bodies and answers are SIBOL's, so such a controller reports here with only the server
address changed and its device key added (SIBOL's backend trusts any device id; we do not).
Readings go through the same parsing, validation and duplicate rules as POST /api/telemetry
(sibol/telemetry/ingest.py); a refused request stores nothing. docs/telemetry.md maps each field.
"""

from __future__ import annotations

from typing import cast

from flask import Blueprint
from flask_babel import gettext as _
from sqlalchemy import select

from ..api import json_body
from ..commands import service as commands
from ..devices.service import calling_device, device_rate_limit
from ..errors import Forbidden, Invalid
from ..extensions import db
from ..identity.access import public
from ..inputs.numbers import finite
from ..models import utcnow
from ..models.telemetry import DeviceKey, Reading
from . import ingest

bp = Blueprint("sibol_device", __name__)

GRAMS_ABOVE = 1000  # SIBOL's scale sends grams above this and kilograms below
VOLTAGE_RANGE = (0.0, 500.0)
CURRENT_RANGE = (0.0, 100.0)


def _renamed(err: Invalid, names: dict[str, str]) -> Invalid:
    """ingest's refusal, naming the field as SIBOL's device sent it."""
    field = names.get(err.field or "", err.field)
    message = err.message
    if err.field and field and message.startswith(err.field):
        message = field + message[len(err.field) :]
    return Invalid(message, field=field)


def _store(device: DeviceKey, body: dict, fields: dict[str, str]) -> tuple[Reading, bool]:
    """Parse {SIBOL field: our metric} (+ timestamp) like POST /api/telemetry, store, and return
    the reading's row and whether it was new. Readings of one time sent by separate routes merge."""
    now = utcnow()
    raw = {ours: body[theirs] for theirs, ours in fields.items() if theirs in body}
    raw["ts"] = body.get("timestamp")
    names = {ours: theirs for theirs, ours in fields.items()} | {"ts": "timestamp"}
    if not any(raw.get(ours) is not None for ours in fields.values()):
        theirs = ", ".join(fields)
        raise Invalid(_("Send %(fields)s as numbers.", fields=theirs), field=next(iter(fields)))
    try:
        reading = ingest.parse_reading(raw, None, now)
    except Invalid as err:
        raise _renamed(err, names) from None
    db.session.commit()  # end the read of the key, as ingest.ingest does
    result = ingest.store(device.machine_id, [reading], now=now, merge=True)
    row = db.session.scalar(
        select(Reading).where(Reading.machine_id == device.machine_id, Reading.ts == reading["ts"])
    )
    return cast(Reading, row), result.accepted > 0  # stored now, or before (a duplicate)


def _stamp(row: Reading) -> str:
    return row.ts.isoformat(timespec="seconds") + "Z"


def _number(body: dict, name: str) -> float | None:
    value = body.get(name)
    if value is None:
        return None
    number = finite(value)
    if number is None:
        raise Invalid(_("%(field)s must be a finite number.", field=name), field=name)
    return number


@bp.post("/s1-esp32/data")
@public  # authenticated by the device key, below
@device_rate_limit
def weight_data():
    """SIBOL's scale: {"weight", "deviceId"}; a weight over 1000 is grams (divided by 1000), stored as weight_kg"""
    device = calling_device()
    body = json_body()
    weight = _number(body, "weight")
    if weight is None:
        raise Invalid(_("weight is required (a number)."), field="weight")
    kg = weight / 1000 if weight > GRAMS_ABOVE else weight
    row, _new = _store(device, {"weight": kg}, {"weight": "weight_kg"})
    data = {"id": row.id, "deviceId": body.get("deviceId"), "weight": row.weight_kg, "timestamp": _stamp(row)}
    return {"success": True, "message": "Weight data received", "data": data}, 201


SENSOR_FIELDS = {
    "pressureSensor": "pressure_kpa",
    "phSensor": "ph",
    "tempSensor": "temperature_c",
    "methaneSensor": "methane_pct",
}


@bp.post("/s3-sensors/data")
@public
@device_rate_limit
def sensor_data():
    """SIBOL's digester sensors: pressure (kPa), pH, temperature (°C), methane (%); machineId must be the key's"""
    device = calling_device()
    body = json_body()
    machine_id = body.get("machineId")
    if machine_id is not None and str(machine_id).strip() != str(device.machine_id):
        raise Forbidden(_("machineId is not the machine of this device key."), field="machineId")
    row, _new = _store(device, body, SENSOR_FIELDS)
    data = {
        "id": row.id,
        "machineId": device.machine_id,
        **{theirs: getattr(row, ours) for theirs, ours in SENSOR_FIELDS.items()},
        "timestamp": _stamp(row),
    }
    return {"success": True, "message": "Sensor reading saved", "data": data}, 201


@bp.post("/voltage-current")
@public
@device_rate_limit
def voltage_current():
    """SIBOL's generator meter: {"voltage" (0-500 V), "current" (0-100 A), "deviceId", "timestamp"}"""
    device = calling_device()
    body = json_body()
    for name, (low, high), unit in (("voltage", VOLTAGE_RANGE, "V"), ("current", CURRENT_RANGE, "A")):
        value = _number(body, name)
        if value is None:
            raise Invalid(_("%(field)s is required (a number).", field=name), field=name)
        if not low <= value <= high:
            raise Invalid(
                _(
                    "%(field)s must be between %(low)g and %(high)g %(unit)s.",
                    field=name,
                    low=low,
                    high=high,
                    unit=unit,
                ),
                field=name,
            )
    row, _new = _store(device, body, {"voltage": "voltage_v", "current": "current_a"})
    data = {
        "id": row.id,
        "deviceId": body.get("deviceId"),
        "voltage": row.voltage_v,
        "current": row.current_a,
        "timestamp": _stamp(row),
    }
    return {"success": True, "message": "Voltage and current data saved", "data": data}, 201


@bp.get("/s1-esp32/commands/<device_id>")
@public
@device_rate_limit
def pending_commands(device_id: str):
    """The key's machine's queued commands, each now delivered (the path's deviceId is echoed, not trusted)"""
    device = calling_device()
    delivered = commands.deliver_pending(device.machine_id)
    shaped = [
        {
            "id": c["id"],
            "deviceId": device_id,
            "command": c["command"],
            "value": c["value"],
            "timestamp": c["createdAt"],
        }
        for c in delivered
    ]
    return {"count": len(shaped), "commands": shaped}


@bp.put("/s1-esp32/command/<command_id>/executed")
@public
@device_rate_limit
def command_executed(command_id: str):
    """Mark one of the key's machine's commands executed (404 for another machine's, 409 when answered)"""
    device = calling_device()
    commands.record_result(device.machine_id, command_id, "executed", None)
    return {"success": True, "message": "Command marked as executed"}


for _view in (weight_data, sensor_data, voltage_current, pending_commands, command_executed):
    _view.sibol_csrf_exempt = True  # type: ignore[attr-defined]
