"""The embedded Mosquitto: its configuration and dynamic-security file, written from the database.

`flask mqtt prepare` rewrites both at every start, so the broker always knows exactly the keys in
the database (the device keys' broker hashes are kept in mqtt_devices). Two plugins check each
CONNECT, in this order: the console's client-id rule (client_ids.c: a device only under its own
client id), then dynamic security (the key). Persistence is on and saved after every change (see
mosquitto_conf), so a subscriber's queued messages and sessions survive a broker restart or crash.
"""

from __future__ import annotations

import dataclasses
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

from flask import current_app
from sqlalchemy import select

from ...extensions import db
from ...models.mqtt import MqttDevice
from ...models.telemetry import DeviceKey
from ...mqtt.session import hold_session
from ...mqtt.settings import CONSOLE_USER, Broker
from . import dynsec
from .plugin import build_plugin

MAX_PACKET = 64 * 1024  # a message of 500 readings is about 40 KB
# Messages held for a subscriber that is away: about 80 minutes of the national fleet's 401/s.
MAX_QUEUED = 2_000_000
DEVICE_ID_PREFIX = "sibol-device-"  # a device's client id: sibol-device-<machine id>[-<suffix>]
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


def mosquitto_conf(
    directory: Path,
    port: int,
    *,
    bind: str = "127.0.0.1",
    log_file: bool = True,
    access_file: str = "dynamic-security.json",
    autosave_seconds: int = 0,
) -> str:
    """The broker's configuration. `autosave_seconds` 0 (SIBOL_MQTT_AUTOSAVE_SECONDS, the default):
    its state is saved after every change; N: every N seconds, as Mosquitto does by default."""
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
        # Save the in-memory state after every change rather than every 30 s: a reading the
        # broker acknowledged to a device while the subscriber was away must survive a crash
        # of the broker (docs/performance.md measures what it costs, and when to trade it).
        *(["autosave_on_changes true", "autosave_interval 1"] if autosave_seconds <= 0 else []),
        *([f"autosave_interval {autosave_seconds}"] if autosave_seconds > 0 else []),
        f"max_queued_messages {MAX_QUEUED}",
        "max_inflight_messages 1000",
        "persistent_client_expiration 14d",
        # The client-id rule first: it refuses a CONNECT under another client's id before the
        # session is touched, and defers to dynamic security for the password otherwise.
        f"plugin {build_plugin(directory)}",
        f"plugin_opt_device_prefix {DEVICE_ID_PREFIX}",
        f"plugin {plugin_path()}",
        f"plugin_opt_config_file {directory / access_file}",
        "log_type error",
        "log_type warning",
        "log_type notice",
        f"log_dest file {directory / 'mosquitto.log'}" if log_file else "log_dest stderr",
    ]
    return "\n".join(lines) + "\n"


def _write_private_json(path: Path, document: dict) -> None:
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # holds password hashes
    with os.fdopen(fd, "w") as fh:
        json.dump(document, fh)
    os.replace(tmp, path)


def write_files(
    directory: Path, port: int, console_password: str, *, console_user: str = CONSOLE_USER
) -> Path:
    """Write mosquitto.conf and dynamic-security.json (from the database) into `directory`;
    returns the configuration file's path. Call inside an app context."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "data").mkdir(exist_ok=True)
    document = dynsec.config_document(console_user, console_password, device_entries())
    _write_private_json(directory / "dynamic-security.json", document)
    conf = directory / "mosquitto.conf"
    conf.write_text(mosquitto_conf(directory, port, autosave_seconds=_autosave_seconds()))
    return conf


def write_console_only_files(
    directory: Path, port: int, console_password: str, *, console_user: str = CONSOLE_USER
) -> Path:
    """A configuration for the same broker state (the same persistence folder) that knows the
    console's client and no device, listening on `port`: the broker runs with it first, for the
    subscriber's session to exist before any device can publish. Returns its path."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "data").mkdir(exist_ok=True)
    access = "dynamic-security-console-only.json"
    _write_private_json(directory / access, dynsec.config_document(console_user, console_password, []))
    conf = directory / "mosquitto-console-only.conf"
    conf.write_text(mosquitto_conf(directory, port, access_file=access, autosave_seconds=_autosave_seconds()))
    return conf


def _autosave_seconds() -> int:
    return int(current_app.config.get("SIBOL_MQTT_AUTOSAVE_SECONDS") or 0)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def hold_subscriber_session(directory: Path, broker: Broker, timeout: float = 15.0) -> list[str]:
    """Create the console subscriber's session before any device can publish.

    On a first start (or after its data folder was removed) the broker knows no subscriber
    session, so a reading a device publishes before `flask mqtt subscribe` has subscribed has
    no taker: Mosquitto acknowledges it and drops it. So the broker first runs on a private
    loopback port with a configuration that knows the console and no device
    (write_console_only_files), the subscriber's session is created there (clean start off,
    subscribed to its topics), and the broker is stopped with SIGTERM, which saves it in the
    persistence file that the real broker loads next. Done at every start: subscribing again to
    the same topics changes nothing. Returns the topics."""
    port = _free_port()
    conf = write_console_only_files(directory, port, broker.password, console_user=broker.username)
    proc = subprocess.Popen(  # noqa: S603 - our own binary and configuration
        [mosquitto_binary(), "-c", str(conf)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited at once (see {directory / 'mosquitto.log'})")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("mosquitto did not start") from None
                time.sleep(0.05)
        local = dataclasses.replace(broker, host="127.0.0.1", port=port, tls=False)
        return hold_session(current_app._get_current_object(), local)  # type: ignore[attr-defined]
    finally:
        proc.terminate()  # SIGTERM: Mosquitto saves its state on the way out
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
