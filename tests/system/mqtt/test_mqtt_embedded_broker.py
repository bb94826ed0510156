"""The embedded broker as `make run` starts it (`flask mqtt broker` with SIBOL_MQTT=1): on its
very first start no device gets in before the console subscriber's session exists, and two
consoles of one checkout each keep their own broker files."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.factories import make_machine
from tests.factories_telemetry import healthy
from tests.support.mosquitto import SubscriberProcess, wait_until
from tests.support.servers import ROOT, free_port, server_env, setup_database, stop_group

from .stream import iso, stored

NOT_AUTHORISED = 135


def start_broker(env: dict[str, str], log: Path) -> subprocess.Popen:
    out = open(log, "ab")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "wsgi", "mqtt", "broker"],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=out,
        start_new_session=True,
    )


def try_connect(port: int, username: str, password: str, client_id: str) -> tuple[int, mqtt.Client | None]:
    """(CONNACK reason, the connected client or None); -1 while nothing listens on the port."""
    answer: queue.Queue[int] = queue.Queue()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    client.username_pw_set(username, password)
    client.on_connect = lambda _c, _u, _f, reason, _p: answer.put(reason.value)
    try:
        client.connect("127.0.0.1", port, keepalive=10)
    except OSError:
        return -1, None
    client.loop_start()
    try:
        code = answer.get(timeout=10)
    except queue.Empty:
        code = -1
    if code != 0:
        client.loop_stop()
        return code, None
    return code, client


def test_on_the_first_start_no_device_publishes_before_the_subscriber_holds_its_session(
    database_url, tmp_path, issue
):
    machine = make_machine()
    key = issue(machine)  # the broker is not running: the key waits in the database
    port = free_port()
    env = server_env(
        database_url,
        SIBOL_MQTT="1",
        MQTT_PORT=str(port),
        SIBOL_MQTT_DIR=str(tmp_path / "fresh-mqtt"),
        SIBOL_TELEMETRY_RATE_LIMIT="100000 per minute",
    )
    broker = start_broker(env, tmp_path / "broker.log")
    dev = None
    try:
        # The device tries from the very first moment the broker's port answers.
        code, dev = wait_until(
            lambda: (
                (r := try_connect(port, str(machine.id), key, f"sibol-device-{machine.id}"))[0] == 0 and r
            ),
            timeout=30,
            what="the device connected",
        )
        acks: queue.Queue[object] = queue.Queue()
        dev.on_publish = lambda _c, _u, _mid, reason, _p: acks.put(reason)
        ts = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=1)
        body = str(healthy(ph=7.4, ts=iso(ts))).replace("'", '"')
        dev.publish(f"sibol/v1/machines/{machine.id}/telemetry", body, 1)
        reason = acks.get(timeout=10)
        # Taken for the subscriber's session, not "No matching subscribers" (dropped).
        assert reason.value == 0, reason
        subscriber = SubscriberProcess(env, tmp_path / "subscriber.log").start().wait_ready()
        try:
            wait_until(lambda: stored(machine.id), what="the first reading stored")
        finally:
            subscriber.stop()
    finally:
        if dev is not None:
            dev.disconnect()
            dev.loop_stop()
        stop_group(broker)


@pytest.mark.skipif(
    bool(os.environ.get("SIBOL_TEST_DATABASE_URL")),
    reason="two SQLite files in two folders are the point here; it runs in `make test`",
)
def test_two_consoles_of_one_checkout_keep_their_own_broker_files(tmp_path):
    consoles = {}
    for site in ("north", "south"):
        folder = tmp_path / site
        folder.mkdir()
        port = free_port()
        env = server_env(f"sqlite:///{folder / 'sibol.sqlite3'}", SIBOL_MQTT="1", MQTT_PORT=str(port))
        env["FLASK_SKIP_DOTENV"] = "1"
        setup_database(env)
        consoles[site] = (folder, port, env)
    north, south = consoles["north"], consoles["south"]
    brokers = [start_broker(env, folder / "broker.log") for folder, _port, env in (north, south)]
    try:
        for folder, port, _env in (north, south):
            mqtt_dir = folder / "mqtt"
            wait_until(lambda mqtt_dir=mqtt_dir: (mqtt_dir / "data" / "mosquitto.db").exists(), what="a save")
            conf = (mqtt_dir / "mosquitto.conf").read_text()
            assert f"listener {port} 127.0.0.1" in conf
            assert f"persistence_location {mqtt_dir / 'data'}/" in conf
            assert f"plugin_opt_config_file {mqtt_dir / 'dynamic-security.json'}" in conf
        secrets = {
            site: (f / "mqtt" / "console-secret").read_text() for site, (f, _p, _e) in consoles.items()
        }
        assert secrets["north"] != secrets["south"]
        # Each broker takes its own console's secret and not the other's.
        for site, other in (("north", "south"), ("south", "north")):
            port = consoles[site][1]
            own = wait_until(
                lambda port=port, site=site: (
                    (r := try_connect(port, "sibol-console", secrets[site], "sibol-x"))[0] >= 0 and r
                ),
                what=f"{site}'s broker",
            )
            assert own[0] == 0
            own[1].disconnect()
            own[1].loop_stop()
            assert try_connect(port, "sibol-console", secrets[other], "sibol-y")[0] == NOT_AUTHORISED
    finally:
        for proc in brokers:
            stop_group(proc)
