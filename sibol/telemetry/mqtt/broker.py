"""The embedded Mosquitto: its configuration and dynamic-security file, written from the database.

`flask mqtt prepare` rewrites both at every start, so the broker always knows exactly the keys in
the database (the device keys' broker hashes are kept in mqtt_devices). Persistence is on: a
subscriber's queued messages and sessions survive a broker restart.
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
from pathlib import Path

from sqlalchemy import select

from ...extensions import db
from ...models.mqtt import MqttDevice
from ...models.telemetry import DeviceKey
from ...mqtt.settings import CONSOLE_USER
from . import dynsec

MAX_PACKET = 64 * 1024  # a message of 500 readings is about 40 KB
# Messages held for a subscriber that is away: about 80 minutes of the national fleet's 401/s.
MAX_QUEUED = 2_000_000
PLUGIN_PATHS = (
    "/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so",
    "/usr/lib/*/mosquitto_dynamic_security.so",
    "/usr/lib/mosquitto_dynamic_security.so",
    "/usr/local/lib/mosquitto_dynamic_security.so",
    "/opt/homebrew/lib/mosquitto_dynamic_security.so",
)


def mosquitto_binary() -> str:
    """The mosquitto executable (Debian puts it in /usr/sbin, often not on a user's PATH)."""
    found = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.path.exists(p)), None
    )
    if not found:
        raise FileNotFoundError("mosquitto is not installed (Debian/Ubuntu: sudo apt-get install mosquitto)")
    return found


def plugin_path() -> str:
    for pattern in PLUGIN_PATHS:
        for path in sorted(glob.glob(pattern)):
            return path
    raise FileNotFoundError(
        "Mosquitto's dynamic-security plugin (mosquitto_dynamic_security.so) was not found"
    )


def device_entries() -> list[tuple[int, dict]]:
    """(machine id, password entry) of every machine whose key is live."""
    rows = db.session.execute(
        select(MqttDevice.machine_id, MqttDevice.password_hash, MqttDevice.salt, MqttDevice.iterations)
        .join(DeviceKey, DeviceKey.machine_id == MqttDevice.machine_id)
        .where(DeviceKey.key_hash.is_not(None), MqttDevice.password_hash.is_not(None))
        .order_by(MqttDevice.machine_id)
    )
    return [(m, {"password": h, "salt": s, "iterations": n}) for m, h, s, n in rows]


def mosquitto_conf(directory: Path, port: int, *, bind: str = "127.0.0.1", log_file: bool = True) -> str:
    data = directory / "data"
    lines = [
        "# Written by the SIBOL console (flask mqtt prepare) at every start; edits are lost.",
        "per_listener_settings false",
        # Run as whoever starts it (as root Mosquitto would switch to user "mosquitto", which
        # cannot read the console's files).
        f"user {pwd.getpwuid(os.getuid()).pw_name}",
        f"listener {port} {bind}",
        "allow_anonymous false",
        f"max_packet_size {MAX_PACKET}",
        "persistence true",
        f"persistence_location {data}/",
        "autosave_interval 30",
        f"max_queued_messages {MAX_QUEUED}",
        "max_inflight_messages 1000",
        "persistent_client_expiration 14d",
        f"plugin {plugin_path()}",
        f"plugin_opt_config_file {directory / 'dynamic-security.json'}",
        "log_type error",
        "log_type warning",
        "log_type notice",
        f"log_dest file {directory / 'mosquitto.log'}" if log_file else "log_dest stderr",
    ]
    return "\n".join(lines) + "\n"


def write_files(
    directory: Path, port: int, console_password: str, *, console_user: str = CONSOLE_USER
) -> Path:
    """Write mosquitto.conf and dynamic-security.json (from the database) into `directory`;
    returns the configuration file's path. Call inside an app context."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "data").mkdir(exist_ok=True)
    document = dynsec.config_document(console_user, console_password, device_entries())
    secret_file = directory / "dynamic-security.json"
    tmp = secret_file.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # holds password hashes
    with os.fdopen(fd, "w") as fh:
        json.dump(document, fh)
    os.replace(tmp, secret_file)
    conf = directory / "mosquitto.conf"
    conf.write_text(mosquitto_conf(directory, port))
    return conf
