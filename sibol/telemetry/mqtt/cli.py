"""flask mqtt prepare | broker (the embedded broker), and flask telemetry simulate (HTTP or MQTT
devices). `flask mqtt subscribe` is the platform's (sibol.mqtt.cli, wired in sibol/cli.py)."""

from __future__ import annotations

import os

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from ...mqtt.cli import mqtt_group
from ...mqtt.settings import broker_dir, broker_settings, parse_url


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
        from .broker import write_files

        broker = _embedded_broker()
        click.echo(write_files(broker_dir(), broker.port, broker.password))

    @mqtt_cli.command("broker")
    def broker_command() -> None:
        """Prepare, then run the embedded Mosquitto in the foreground (make run does this)."""
        from .broker import mosquitto_binary, write_files

        broker = _embedded_broker()
        conf = write_files(broker_dir(), broker.port, broker.password)
        binary = mosquitto_binary()
        click.echo(f"Mosquitto on 127.0.0.1:{broker.port} ({conf})")
        os.execv(binary, [binary, "-c", str(conf)])  # noqa: S606 - our own configuration

    telemetry_cli = AppGroup("telemetry", help="Telemetry tools.")

    @telemetry_cli.command("simulate")
    @click.option("--machines", "count", default=3, show_default=True, help="How many devices report.")
    @click.option("--interval", default=5.0, show_default=True, help="Seconds between a device's readings.")
    @click.option("--duration", default=60.0, show_default=True, help="Seconds to run (0: until stopped).")
    @click.option(
        "--mqtt", "use_mqtt", is_flag=True, help="Publish over MQTT, each device on its own connection."
    )
    @click.option(
        "--broker-url", default=None, help="mqtt[s]://host:port of the broker (default: the console's)."
    )
    @click.option(
        "--base-url", default=None, help="HTTP mode: the console's address (default SIBOL_BASE_URL)."
    )
    @click.option("--fault-rate", default=0.03, show_default=True, help="Chance a reading starts a fault.")
    @click.option("--seed", "seed_value", default=None, type=int, help="Random seed (repeatable runs).")
    def simulate_command(
        count: int,
        interval: float,
        duration: float,
        use_mqtt: bool,
        broker_url: str | None,
        base_url: str | None,
        fault_rate: float,
        seed_value: int | None,
    ) -> None:
        """Issue device keys for N machines and send realistic readings over HTTP or MQTT."""
        if not use_mqtt:
            from ..simulator import run

            url = (base_url or current_app.config["SIBOL_BASE_URL"]).rstrip("/")
            sent = run(url, count, interval, duration, fault_rate, 0.0, seed_value, echo=click.echo)
            click.echo(f"Stored {sent} readings.")
            return
        from .devices import simulate

        broker = parse_url(broker_url) if broker_url else broker_settings()
        if broker is None:
            raise click.ClickException(
                "MQTT is off: set SIBOL_MQTT=1 or SIBOL_MQTT_URL, or pass --broker-url."
            )
        acked = simulate(broker, count, interval, duration, fault_rate, seed_value, echo=click.echo)
        click.echo(f"The broker acknowledged {acked} readings.")

    app.cli.add_command(telemetry_cli)
