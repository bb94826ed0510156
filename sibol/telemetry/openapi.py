"""OpenAPI descriptions of the telemetry routes (merged into sibol/api/schemas.py OPERATIONS)."""

from __future__ import annotations

from ..api.schemas import obj
from ..models.telemetry import METRICS
from .metrics import SERIES_METRICS

NUMBER = {"type": "number"}
TS = {"type": "string", "description": "ISO 8601 with a UTC offset, or epoch milliseconds (integer)"}
READING = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"ts": TS, **{m: NUMBER for m in METRICS}},
    "description": "At least one metric. pH 0-14; methane 0-100; weight, volume and pressure not negative; "
    "ts within the last 30 days and at most 5 minutes ahead (absent: the server's time)",
}
SIBOL_TS = {
    "type": "string",
    "description": "ISO 8601 with a UTC offset, or epoch milliseconds (absent: now)",
}
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


RANGE = {"type": "object", "properties": {"min": NUMBER, "max": NUMBER}, "required": ["min", "max"]}
TIME_Q = {"type": "string", "description": "ISO 8601 or epoch milliseconds"}

OPERATIONS: dict[tuple[str, str], dict] = {
    ("api.telemetry.issue_device_key", "POST"): {
        "status": 201,
        "response": {
            "type": "object",
            "properties": {"deviceKey": {"type": "string"}},
            "required": ["deviceKey"],
        },
        "errors": ["400", "404"],
    },
    ("api.telemetry.revoke_device_key", "DELETE"): {
        "status": 204,
        "success_content": {},
        "errors": ["400", "404"],
    },
    ("api.telemetry.post_telemetry", "POST"): {
        "status": 202,
        "summary": "Post readings, authenticated by `Authorization: Device <key>` only (no token, cookie or CSRF)",
        "body": {
            "oneOf": [
                READING,
                {
                    "type": "object",
                    "properties": {
                        "readings": {"type": "array", "items": READING, "minItems": 1, "maxItems": 500}
                    },
                    "required": ["readings"],
                },
            ]
        },
        "response": {
            "type": "object",
            "properties": {"accepted": {"type": "integer"}, "duplicates": {"type": "integer"}},
        },
        "errors": ["400", "401", "415", "429"],
    },
    ("api.telemetry.latest", "GET"): {"errors": ["404"]},
    ("api.telemetry.refusals", "GET"): {
        "response": {
            "type": "object",
            "properties": {
                "machineId": {"type": "integer"},
                "refusedCount": {"type": "integer", "description": "every refused MQTT message, ever"},
                "data": {
                    "type": "array",
                    "description": "the newest 20 refusals, newest first",
                    "items": {
                        "type": "object",
                        "properties": {
                            "at": {"type": "string"},
                            "reason": {"type": "string"},
                            "payload": {
                                "type": "string",
                                "description": "the first 512 bytes, \\xNN for non-UTF-8",
                            },
                        },
                    },
                },
                "deadLetterCount": {
                    "type": "integer",
                    "description": "messages kept after a handler failed on them",
                },
                "deadLetters": {"type": "array", "items": {"type": "object"}},
            },
            "required": ["machineId", "refusedCount", "data", "deadLetterCount", "deadLetters"],
        },
        "errors": ["404"],
    },
    ("api.telemetry.series", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
        "query": {
            "metric": {"type": "string", "enum": list(SERIES_METRICS)},
            "from": TIME_Q,
            "to": TIME_Q,
            "bucket": {"type": "string", "enum": ["raw", "5m", "1h", "1d"], "default": "1h"},
        },
        "errors": ["400", "404"],
    },
    ("api.telemetry.thresholds", "GET"): {"errors": ["404"]},
    ("api.telemetry.update_thresholds", "PUT"): {
        "body": {"type": "object", "properties": {m: RANGE for m in METRICS}},
        "errors": ["400", "404", "415"],
    },
    ("api.telemetry.list_alerts", "GET"): {
        "csv": True,  # also text/csv: format=csv or Accept: text/csv
        "query": {
            "state": {"type": "string", "enum": ["open", "closed", "all"], "default": "open"},
            "machine": {"type": "integer"},
        },
        "errors": ["400", "404"],
    },
    ("api.telemetry.acknowledge", "POST"): {"errors": ["400", "404", "409"]},
    ("api.telemetry.acknowledge_selected", "POST"): {
        "body": {
            "type": "object",
            "required": ["ids"],
            "properties": {
                "ids": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 200}
            },
        },
        "errors": ["400", "404", "415"],
    },
    ("api.telemetry.list_notifications", "GET"): {
        "query": {"unread": {"type": "string", "enum": ["1"]}},
        "errors": [],
    },
    ("api.telemetry.read_notification", "POST"): {"errors": ["400", "404"]},
    ("api.telemetry.read_all_notifications", "POST"): {"errors": ["400"]},
    ("api.telemetry.notification_preferences", "GET"): {"errors": []},
    ("api.telemetry.update_notification_preferences", "PUT"): {
        "body": {
            "type": "object",
            "properties": {
                k: {"type": "string", "enum": ["console", "email", "both"]}
                for k in (
                    "alert_opened",
                    "alert_closed",
                    "maintenance_assigned",
                    "maintenance_overdue",
                    "container_full",
                    "account",
                )
            },
        },
        "errors": ["400", "415"],
    },
    # SIBOL's own device API (sibol/telemetry/sibol_api.py)
    ("api.sibol_device.weight_data", "POST"): {
        "status": 201,
        "summary": "SIBOL's scale: weight in kg, or grams when over 1000. " + KEYED,
        "body": obj({"weight": NUMBER, "deviceId": {"type": "string"}}, "weight"),
        "response": saved(
            "Weight data received", {"id": {}, "deviceId": {}, "weight": NUMBER, "timestamp": SIBOL_TS}
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
                "timestamp": SIBOL_TS,
            }
        ),
        "response": saved("Sensor reading saved", {"id": {}, "machineId": {}, "timestamp": SIBOL_TS}),
        "errors": [*DEVICE_ERRORS, "403"],
    },
    ("api.sibol_device.voltage_current", "POST"): {
        "status": 201,
        "summary": "SIBOL's generator meter: voltage 0-500 V, current 0-100 A. " + KEYED,
        "body": obj(
            {"voltage": NUMBER, "current": NUMBER, "deviceId": {"type": "string"}, "timestamp": SIBOL_TS},
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
