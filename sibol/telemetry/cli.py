"""flask telemetry-tick (periodic work) and flask telemetry simulate (alias simulate-devices)."""

from __future__ import annotations

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from ..commands import service as commands
from ..models import utcnow
from ..mqtt import refusals
from . import alerts, hooks, notifications, rollups
from .mqtt.cli import register_mqtt_commands, simulate_over_mqtt
from .simulator import run


def tick() -> dict[str, int]:
    """The periodic work: overdue commands, silent machines, overdue maintenance, raw retention (readings, MQTT dead letters), pending e-mail."""
    now = utcnow()
    return {
        "expired_commands": commands.expire_due(now=now),
        "silent_alerts": alerts.check_silence(now=now),
        "overdue_notices": hooks.notify_overdue_maintenance(now.date()),
        "purged_readings": rollups.purge_raw(current_app.config["SIBOL_TELEMETRY_RAW_DAYS"], now=now),
        "purged_dead_letters": refusals.purge_dead_letters(now=now),
        "emails_sent": notifications.deliver_pending(),
    }


def register_commands(app: Flask) -> None:
    @app.cli.command("telemetry-tick")
    def tick_command() -> None:
        """Run the periodic telemetry work once (schedule it every minute)."""
        for name, count in tick().items():
            click.echo(f"{name}: {count}")

    register_simulator(app)
    register_mqtt_commands(app)


def register_simulator(app: Flask) -> None:
    # `flask telemetry simulate` is the documented name; `flask simulate-devices` runs the same.
    group = AppGroup("telemetry", help="Device telemetry: the device simulator.")

    @group.command("simulate")
    @click.option("--machines", "count", default=3, show_default=True, help="How many machines report.")
    @click.option("--interval", default=5.0, show_default=True, help="Seconds between readings.")
    @click.option("--duration", default=60.0, show_default=True, help="Seconds to run (0: until stopped).")
    @click.option("--base-url", default=None, help="The console's address (default SIBOL_BASE_URL).")
    @click.option("--fault-rate", default=0.03, show_default=True, help="Chance a reading starts a fault.")
    @click.option(
        "--silence-rate", default=0.01, show_default=True, help="Chance a machine goes quiet a while."
    )
    @click.option("--seed", "seed_value", default=None, type=int, help="Random seed (repeatable runs).")
    @click.option("--poll", default=2.0, show_default=True, help="Seconds between polls for commands.")
    @click.option(
        "--mqtt", "use_mqtt", is_flag=True, help="Publish over MQTT, each device on its own connection."
    )
    @click.option(
        "--broker-url", default=None, help="With --mqtt: mqtt[s]://host:port (default: the console's)."
    )
    def simulate_command(
        count: int,
        interval: float,
        duration: float,
        base_url: str | None,
        fault_rate: float,
        silence_rate: float,
        seed_value: int | None,
        poll: float,
        use_mqtt: bool,
        broker_url: str | None,
    ) -> None:
        """Issue device keys for N machines, post realistic readings through the HTTP API and obey
        the console's commands (GET /api/device/commands), answering each; with --mqtt, publish
        over MQTT instead, each device on its own connection."""
        if use_mqtt:
            acked = simulate_over_mqtt(count, interval, duration, broker_url, fault_rate, seed_value)
            click.echo(f"The broker acknowledged {acked} readings.")
            return

        url = (base_url or current_app.config["SIBOL_BASE_URL"]).rstrip("/")
        sent = run(
            url, count, interval, duration, fault_rate, silence_rate, seed_value, echo=click.echo, poll=poll
        )
        click.echo(f"Stored {sent} readings.")

    app.cli.add_command(group)
    app.cli.add_command(simulate_command, "simulate-devices")
