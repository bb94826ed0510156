"""OpenAPI descriptions of the device routes (merged into sibol/api/schemas.py OPERATIONS).

Each is authenticated by the machine's device key only: `Authorization: Device <key>` or
`X-Device-Key: <key>` (no token, cookie or CSRF token)."""

from __future__ import annotations

from ..api.schemas import obj

NUMBER = {"type": "number"}
TS = {"type": "string", "description": "ISO 8601 with a UTC offset, or epoch milliseconds (absent: now)"}
DEVICE_ERRORS = ["400", "401", "415", "429"]
KEYED = "Authenticated by the device key (Authorization: Device <key> or X-Device-Key: <key>)"


def saved(message: str, data: dict) -> dict:
    return obj(
        {
            "success": {"type": "boolean", "enum": [True]},
            "message": {"type": "string", "enum": [message]},
            "data": obj(data),
        },
        "success",
        "message",
        "data",
    )


OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.devices.poll_commands", "GET"): {
        "summary": "The machine's queued commands, oldest first, each now delivered. " + KEYED,
        "response": obj({"commands": {"type": "array", "items": {"type": "object"}}}, "commands"),
        "errors": ["401", "429"],
    },
    ("api.devices.command_result", "POST"): {
        "summary": "The device's answer to one of its machine's commands. " + KEYED,
        "body": obj(
            {
                "status": {"type": "string", "enum": ["executed", "failed"]},
                "detail": {"type": "string", "maxLength": 500},
            },
            "status",
        ),
        "errors": ["400", "401", "404", "409", "415", "429"],
    },
    ("api.sibol_device.weight_data", "POST"): {
        "status": 201,
        "summary": "SIBOL's scale: weight in kg, or grams when over 1000. " + KEYED,
        "body": obj({"weight": NUMBER, "deviceId": {"type": "string"}}, "weight"),
        "response": saved(
            "Weight data received", {"id": {}, "deviceId": {}, "weight": NUMBER, "timestamp": TS}
        ),
        "errors": DEVICE_ERRORS,
    },
    ("api.sibol_device.sensor_data", "POST"): {
        "status": 201,
        "summary": "SIBOL's digester sensors (kPa, pH, °C, % methane). " + KEYED,
        "body": obj(
            {
                "machineId": {"description": "Must be the key's machine (else 403)"},
                "pressureSensor": NUMBER,
                "phSensor": NUMBER,
                "tempSensor": NUMBER,
                "methaneSensor": NUMBER,
                "timestamp": TS,
            }
        ),
        "response": saved("Sensor reading saved", {"id": {}, "machineId": {}, "timestamp": TS}),
        "errors": [*DEVICE_ERRORS, "403"],
    },
    ("api.sibol_device.voltage_current", "POST"): {
        "status": 201,
        "summary": "SIBOL's generator meter: voltage 0-500 V, current 0-100 A. " + KEYED,
        "body": obj(
            {"voltage": NUMBER, "current": NUMBER, "deviceId": {"type": "string"}, "timestamp": TS},
            "voltage",
            "current",
        ),
        "response": saved("Voltage and current data saved", {"id": {}, "voltage": NUMBER, "current": NUMBER}),
        "errors": DEVICE_ERRORS,
    },
    ("api.sibol_device.pending_commands", "GET"): {
        "summary": "SIBOL's command poll: the key's machine's queued commands, each now delivered. " + KEYED,
        "response": obj(
            {"count": {"type": "integer"}, "commands": {"type": "array", "items": {"type": "object"}}}
        ),
        "errors": ["401", "429"],
    },
    ("api.sibol_device.command_executed", "PUT"): {
        "summary": "SIBOL's answer: the command was executed. " + KEYED,
        "response": obj({"success": {"type": "boolean"}, "message": {"type": "string"}}),
        "errors": ["401", "404", "409", "429"],
    },
}
