"""The `flask mqtt` command group, and its `subscribe` command.

Features add their own commands to the group (telemetry: `prepare` and `broker`, the embedded
broker). Which handlers the subscriber runs is not decided here: the caller passes a function
that imports the features' handler modules (sibol/cli.py), so this package imports no feature.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from .session import HANDLER_LOADER
from .settings import broker_settings
from .subscriber import run_forever


def mqtt_group(app: Flask) -> AppGroup:
    """The app's `flask mqtt` group, made on first use (whichever registers first)."""
    group = app.cli.commands.get("mqtt")
    if not isinstance(group, AppGroup):
        group = AppGroup("mqtt", help="MQTT: the embedded broker and the subscriber.")
        app.cli.add_command(group)
    return group


def add_subscribe_command(app: Flask, load_handlers: Callable[[], object]) -> None:
    """`flask mqtt subscribe`, running the handlers that `load_handlers()` registers (kept on the
    app too, for the embedded broker to create the subscriber's session with the same topics)."""
    app.extensions[HANDLER_LOADER] = load_handlers

    @mqtt_group(app).command("subscribe")
    @click.option(
        "--name", default="1", show_default=True, help="This subscriber's name (its session at the broker)."
    )
    @click.option(
        "--group",
        default=None,
        help="Share the stream with other subscribers of this group (default SIBOL_MQTT_SHARE_GROUP).",
    )
    def subscribe_command(name: str, group: str | None) -> None:
        """Store what devices publish, in batches, until stopped (SIGTERM finishes the batch)."""
        broker = broker_settings()
        if broker is None:
            raise click.ClickException("MQTT is off: set SIBOL_MQTT=1 or SIBOL_MQTT_URL.")
        load_handlers()
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
        run_forever(current_app._get_current_object(), broker, name, group)  # type: ignore[attr-defined]
