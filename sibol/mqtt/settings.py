"""Which broker the console talks to, and paho clients set up for it.

SIBOL_MQTT_URL (mqtt://user:password@host:1883, or mqtts:// for TLS) names an existing broker;
else SIBOL_MQTT=1 means the embedded one that `make run` starts on 127.0.0.1:MQTT_PORT, with the
console's own credentials generated once into its broker folder (broker_dir). With neither, MQTT
is off.
"""

from __future__ import annotations

import os
import secrets
import ssl
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as mqtt
from flask import Flask, current_app
from paho.mqtt.enums import CallbackAPIVersion

from ..config import state_dir

CONSOLE_USER = "sibol-console"
TOPIC_ROOT = "sibol/v1/machines"


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    username: str
    password: str
    tls: bool = False
    embedded: bool = False


def broker_dir(app: Flask | None = None) -> Path:
    """Where the embedded broker's files live: SIBOL_MQTT_DIR, by default the folder "mqtt" among
    this console's own files (sibol.config.state_dir: instance/mqtt for the default database), so
    two consoles of one checkout never share a configuration, device list, persistence file or
    console secret."""
    app = app or current_app
    return Path(app.config.get("SIBOL_MQTT_DIR") or state_dir(app.instance_path) / "mqtt")


def console_password(directory: Path) -> str:
    """The console's broker password, generated once into `directory` (owner-only)."""
    path = directory / "console-secret"
    if path.exists():
        return path.read_text().strip()
    directory.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(value)
    return value


def parse_url(url: str) -> Broker:
    """mqtt[s]://user:password@host[:port] -> Broker; ValueError when it is not one."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise ValueError("SIBOL_MQTT_URL must look like mqtt://user:password@host:1883 (or mqtts://)")
    tls = parts.scheme == "mqtts"
    return Broker(
        host=parts.hostname,
        port=parts.port or (8883 if tls else 1883),
        username=unquote(parts.username or CONSOLE_USER),
        password=unquote(parts.password or ""),
        tls=tls,
    )


def broker_settings(app: Flask | None = None) -> Broker | None:
    """The configured broker, or None when the console takes HTTP only."""
    app = app or current_app
    if app.config.get("SIBOL_MQTT_URL"):
        return parse_url(app.config["SIBOL_MQTT_URL"])
    if app.config.get("SIBOL_MQTT"):
        password = console_password(broker_dir(app))
        return Broker("127.0.0.1", app.config["MQTT_PORT"], CONSOLE_USER, password, embedded=True)
    return None


def mqtt_enabled(app: Flask | None = None) -> bool:
    app = app or current_app
    return bool(app.config.get("SIBOL_MQTT_URL") or app.config.get("SIBOL_MQTT"))


def topic(machine_id: int, subtopic: str) -> str:
    return f"{TOPIC_ROOT}/{machine_id}/{subtopic}"


def new_client(broker: Broker, client_id: str | None = None, **kwargs) -> mqtt.Client:
    """A paho MQTT 5 client with the console's credentials (TLS for mqtts://)."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id or f"sibol-{uuid.uuid4().hex[:16]}",
        protocol=mqtt.MQTTv5,
        **kwargs,
    )
    client.username_pw_set(broker.username, broker.password)
    if broker.tls:
        client.tls_set_context(ssl.create_default_context())
    return client
