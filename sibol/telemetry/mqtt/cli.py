"""flask mqtt prepare | broker (the embedded broker), and the MQTT mode of flask telemetry simulate. `flask mqtt subscribe` is the platform's (sibol.mqtt.cli, wired in sibol/cli.py)."""

from __future__ import annotations

import os

import click
from flask import Flask, current_app

from ...mqtt.cli import mqtt_group
from ...mqtt.settings import broker_dir, broker_settings, parse_url
from .broker import hold_subscriber_session, mosquitto_binary, write_files
from .devices import simulate
from .plugin import PluginUnavailable


def _embedded_broker():
    broker = broker_settings()
    if broker is None or not broker.embedded:
        raise click.ClickException(
            "Set SIBOL_MQTT=1 to run the console's own broker (SIBOL_MQTT_URL names another)."
        )
    return broker


def register_mqtt_commands(app: Flask) -> None:
    mqtt_cli = mqtt_group(app)

    @mqtt_cli.command("prepare")
    def prepare_command() -> None:
        """Write the embedded broker's configuration and access list from the database."""
        broker = _embedded_broker()
        try:
            click.echo(write_files(broker_dir(), broker.port, broker.password))
        except PluginUnavailable as err:
            raise click.ClickException(str(err)) from None

    @mqtt_cli.command("broker")
    def broker_command() -> None:
        """Prepare, create the subscriber's session, then run the embedded Mosquitto in the
        foreground (make run does this): no device connects before that session exists."""
        broker = _embedded_broker()
        try:
            binary = mosquitto_binary()
            conf = write_files(broker_dir(), broker.port, broker.password)
            if not current_app.config["SIBOL_MQTT_SHARE_GROUP"]:
                hold_subscriber_session(broker_dir(), broker)
        except (FileNotFoundError, RuntimeError) as err:
            raise click.ClickException(str(err)) from None
        click.echo(f"Mosquitto on 127.0.0.1:{broker.port} ({conf})")
        os.execv(binary, [binary, "-c", str(conf)])  # noqa: S606 - our own configuration


def simulate_over_mqtt(
    count: int,
    interval: float,
    duration: float,
    broker_url: str | None,
    fault_rate: float,
    seed_value: int | None,
) -> int:
    """`flask telemetry simulate --mqtt`: N devices, each on its own connection; returns how many
    readings the broker acknowledged."""
    broker = parse_url(broker_url) if broker_url else broker_settings()
    if broker is None:
        raise click.ClickException("MQTT is off: set SIBOL_MQTT=1 or SIBOL_MQTT_URL, or pass --broker-url.")
    return simulate(broker, count, interval, duration, fault_rate, seed_value, echo=click.echo)
