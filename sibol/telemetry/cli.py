"""flask telemetry-tick (periodic work) and flask simulate-devices."""

from __future__ import annotations

import click
from flask import Flask, current_app

from ..models import utcnow


def tick() -> dict[str, int]:
    """The periodic work: silent machines, overdue maintenance, raw retention, pending e-mail."""
    from . import alerts, hooks, notifications, rollups

    now = utcnow()
    return {
        "silent_alerts": alerts.check_silence(now=now),
        "overdue_notices": hooks.notify_overdue_maintenance(now.date()),
        "purged_readings": rollups.purge_raw(current_app.config["SIBOL_TELEMETRY_RAW_DAYS"], now=now),
        "emails_sent": notifications.deliver_pending(),
    }


def register_commands(app: Flask) -> None:
    @app.cli.command("telemetry-tick")
    def tick_command() -> None:
        """Run the periodic telemetry work once (schedule it every minute)."""
        for name, count in tick().items():
            click.echo(f"{name}: {count}")
