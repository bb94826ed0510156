"""A real Mosquitto for the MQTT tests, on a free port with its own data directory, set up by the
console's own code (sibol.telemetry.mqtt.broker), and the console's subscriber as a process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from sibol.telemetry.mqtt.broker import mosquitto_binary, write_files
from tests.support.servers import ROOT, free_port, stop_group

CONSOLE_PASSWORD = "test-console-secret"  # noqa: S105 - a throwaway broker's


def wait_until(check: Callable[[], object], timeout: float = 15, what: str = "condition") -> object:
    """check()'s first truthy value, polled every 0.1 s; AssertionError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


class Mosquitto:
    """mosquitto -c <dir>/mosquitto.conf; files written from the database (app context needed)."""

    def __init__(self, directory: Path, port: int | None = None):
        self.directory = directory
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"mqtt://sibol-console:{CONSOLE_PASSWORD}@127.0.0.1:{self.port}"

    def start(self, *, write: bool = True, timeout: float = 10) -> Mosquitto:
        if write:
            write_files(self.directory, self.port, CONSOLE_PASSWORD)
        log = open(self.directory / "stderr.log", "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [mosquitto_binary(), "-c", str(self.directory / "mosquitto.conf")],
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"mosquitto exited: {(self.directory / 'mosquitto.log').read_text()[-2000:]}"
                )
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    def stop(self) -> None:
        """SIGTERM: Mosquitto saves its persistence file on the way out."""
        stop_group(self.proc)

    def kill(self) -> None:
        """SIGKILL, as a crash or a power cut: nothing is saved on the way out."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def restart(self) -> None:
        self.stop()
        self.start(write=False)


class SubscriberProcess:
    """`flask mqtt subscribe` in its own process group (so it can be SIGKILLed like a power cut)."""

    def __init__(self, env: dict[str, str], log: Path, name: str = "1", group: str = ""):
        self.env, self.log, self.name, self.group = env, log, name, group
        self.proc: subprocess.Popen | None = None
        self.ready_seen = self.log.read_text().count("connected (session present") if log.exists() else 0

    def start(self) -> SubscriberProcess:
        out = open(self.log, "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "flask",
                "--app",
                "wsgi",
                "mqtt",
                "subscribe",
                "--name",
                self.name,
                "--group",
                self.group,
            ],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
        return self

    def wait_ready(self, timeout: float = 20) -> SubscriberProcess:
        """Until it has subscribed (its log says so): a message published before then has no taker."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc and self.proc.poll() is not None:
                raise RuntimeError(f"the subscriber exited: {self.log.read_text()[-2000:]}")
            if (
                self.log.exists()
                and self.log.read_text().count("connected (session present") > self.ready_seen
            ):
                self.ready_seen += 1
                return self
            time.sleep(0.1)
        raise RuntimeError("the subscriber did not subscribe")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        stop_group(self.proc)


def device_client(
    port: int, machine_id: int, key: str, client_id: str | None = None, **callbacks
) -> mqtt.Client:
    """A device's MQTT 5 connection (reason codes visible), its network loop running; its client
    id is its own (sibol-device-<machine id>-<a suffix of its own>) unless another is given."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id or f"sibol-device-{machine_id}-{os.urandom(3).hex()}",
        protocol=mqtt.MQTTv5,
    )
    client.username_pw_set(str(machine_id), key)
    for name, fn in callbacks.items():
        setattr(client, name, fn)
    client.reconnect_delay_set(min_delay=1, max_delay=2)
    client.connect("127.0.0.1", port, keepalive=30)
    client.loop_start()
    return client
