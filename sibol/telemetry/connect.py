"""What a machine's controller needs to reach the console, shown beside its new device key.

MQTT: the broker's host and port as a device sees them (the embedded broker listens on the
console's own host, so a loopback address is replaced by SIBOL_BASE_URL's host), the machine's
telemetry topic and its user name (the machine id; the password is the device key).
HTTP: the readings URL under SIBOL_BASE_URL and the header that carries the key.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app

from ..mqtt.settings import broker_settings, topic

# Addresses that mean "this host" to the console but not to a device elsewhere.
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})  # noqa: S104


def device_settings(machine_id: int) -> dict:
    """{"mqtt": {host, port, tls, topic, username} or None when MQTT is off, "http": {url, request, header}}."""
    base = current_app.config["SIBOL_BASE_URL"]
    broker = broker_settings()
    mqtt = None
    if broker is not None:
        host = broker.host
        if host in LOOPBACK:
            host = urlsplit(base).hostname or host
        mqtt = {
            "host": host,
            "port": broker.port,
            "tls": broker.tls,
            "topic": topic(machine_id, "telemetry"),
            "username": str(machine_id),
        }
    return {
        "mqtt": mqtt,
        "http": {
            "url": f"{base}/api/telemetry",
            "request": f"POST {base}/api/telemetry",
            "header": "Authorization: Device <key>",
        },
    }
