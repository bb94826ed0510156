"""Mosquitto's dynamic-security plugin: the console's clients and roles, and its control topic.

A device is a plugin client named by its machine id, with the PBKDF2-SHA512 hash of its key and a
role of its own that lets it publish to its telemetry and command-result topics and subscribe to
its commands (the plugin of Mosquitto 2.0 has no per-user topic patterns, so one role per
machine). Anything else is refused by the broker. The console's own client may read every
machine's topics, publish commands and drive the plugin.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import threading
import uuid

from paho.mqtt.client import Client, MQTTMessage

from ...mqtt.settings import TOPIC_ROOT, Broker, new_client

CONTROL_TOPIC = "$CONTROL/dynamic-security/v1"
RESPONSE_TOPIC = CONTROL_TOPIC + "/response"
ITERATIONS = 101  # what Mosquitto 2.0 itself uses for its dynamic-security passwords
CONSOLE_ROLE = "sibol-console"


class BrokerUnavailable(Exception):
    """The broker could not be reached, or did not answer a control command."""


def password_entry(raw: str) -> dict:
    """The plugin's fields for a password: base64 PBKDF2-SHA512 hash, salt, iterations."""
    salt = os.urandom(12)
    digest = hashlib.pbkdf2_hmac("sha512", raw.encode("utf-8", "surrogatepass"), salt, ITERATIONS)
    return {
        "password": base64.b64encode(digest).decode(),
        "salt": base64.b64encode(salt).decode(),
        "iterations": ITERATIONS,
    }


def role_name(machine_id: int) -> str:
    return f"machine-{machine_id}"


def device_acls(machine_id: int) -> list[dict]:
    base = f"{TOPIC_ROOT}/{machine_id}"
    return [
        {"acltype": "publishClientSend", "topic": f"{base}/telemetry", "allow": True},
        {"acltype": "publishClientSend", "topic": f"{base}/commands/result", "allow": True},
        {"acltype": "subscribeLiteral", "topic": f"{base}/commands", "allow": True},
        {"acltype": "unsubscribeLiteral", "topic": f"{base}/commands", "allow": True},
    ]


def console_role() -> dict:
    acls = [
        ("publishClientSend", CONTROL_TOPIC + "/#"),
        ("publishClientReceive", CONTROL_TOPIC + "/#"),
        ("subscribePattern", CONTROL_TOPIC + "/#"),
        ("subscribePattern", f"{TOPIC_ROOT}/#"),
        ("subscribePattern", f"$share/+/{TOPIC_ROOT}/#"),
        ("publishClientReceive", f"{TOPIC_ROOT}/#"),
        ("publishClientSend", f"{TOPIC_ROOT}/+/commands"),
        ("unsubscribePattern", "#"),
    ]
    return {"rolename": CONSOLE_ROLE, "acls": [{"acltype": t, "topic": f, "allow": True} for t, f in acls]}


def config_document(console_user: str, console_password: str, devices: list[tuple[int, dict]]) -> dict:
    """The plugin's whole JSON file: the console client, and each device with its password entry."""
    clients = [
        {"username": console_user, **password_entry(console_password), "roles": [{"rolename": CONSOLE_ROLE}]}
    ]
    roles = [console_role()]
    for machine_id, entry in devices:
        clients.append({"username": str(machine_id), **entry, "roles": [{"rolename": role_name(machine_id)}]})
        roles.append({"rolename": role_name(machine_id), "acls": device_acls(machine_id)})
    return {
        "clients": clients,
        "roles": roles,
        "groups": [],
        "defaultACLAccess": {
            "publishClientSend": False,
            "publishClientReceive": True,
            "subscribe": False,
            "unsubscribe": True,
        },
    }


def device_commands(machine_id: int, raw_key: str | None) -> list[dict]:
    """Control commands that make the broker match the machine's key: the old client is deleted
    (which drops its connection at once) and, for a new key, created again with it."""
    commands: list[dict] = [
        {"command": "createRole", "rolename": role_name(machine_id), "acls": device_acls(machine_id)},
        {"command": "deleteClient", "username": str(machine_id)},
    ]
    if raw_key is not None:
        commands.append(
            {
                "command": "createClient",
                "username": str(machine_id),
                "password": raw_key,
                "roles": [{"rolename": role_name(machine_id)}],
            }
        )
    return commands


# Answers that mean the broker already is as asked.
HARMLESS = ("Role already exists", "Client not found")


def run_commands(broker: Broker, commands: list[dict], timeout: float = 3.0) -> list[dict]:
    """Send control commands in one message and wait for the plugin's answers.

    Raises BrokerUnavailable when the broker cannot be reached in time, RuntimeError when the
    plugin refuses a command for another reason than HARMLESS."""
    correlation = uuid.uuid4().hex
    for command in commands:
        command["correlationData"] = correlation
    done = threading.Event()
    answers: list[dict] = []
    subscribed = threading.Event()

    def on_connect(client: Client, _u, _f, reason, _p) -> None:
        if reason.is_failure:
            done.set()
            return
        client.subscribe(RESPONSE_TOPIC, qos=1)

    def on_subscribe(_c, _u, _mid, _codes, _p) -> None:
        subscribed.set()

    def on_message(_c, _u, message: MQTTMessage) -> None:
        try:
            body = json.loads(message.payload)
        except ValueError:
            return
        mine = [r for r in body.get("responses", []) if r.get("correlationData") == correlation]
        answers.extend(mine)
        if len(answers) >= len(commands):
            done.set()

    client = new_client(broker)
    client.on_connect, client.on_subscribe, client.on_message = on_connect, on_subscribe, on_message
    try:
        client.connect(broker.host, broker.port, keepalive=10)
    except OSError as err:
        raise BrokerUnavailable(str(err)) from err
    client.loop_start()
    try:
        if not subscribed.wait(timeout):
            raise BrokerUnavailable("the broker did not accept the console's connection")
        client.publish(CONTROL_TOPIC, json.dumps({"commands": commands}), qos=1)
        if not done.wait(timeout):
            raise BrokerUnavailable("the broker did not answer")
    finally:
        client.disconnect()
        client.loop_stop()
    failed = [a for a in answers if a.get("error") and a["error"] not in HARMLESS]
    if failed:
        raise RuntimeError(f"the broker refused {failed[0].get('command')}: {failed[0]['error']}")
    return answers
