"""flask setup, flask seed, flask create-admin, flask create-city-admin, flask backup, flask restore,
flask digest, and flask mqtt subscribe with the features' MQTT handlers."""

from __future__ import annotations

import click
from flask import Flask, current_app

from . import seed
from .commands import mqtt as command_results
from .data.backup import backup, digest, restore
from .extensions import db
from .mqtt.cli import add_subscribe_command
from .telemetry.mqtt import handlers as readings


def _create_admin() -> None:
    cfg = current_app.config
    account, generated = seed.ensure_admin(
        cfg["SIBOL_ADMIN_USERNAME"], cfg["SIBOL_ADMIN_EMAIL"], cfg["SIBOL_ADMIN_PASSWORD"]
    )
    if account is None:
        click.echo("An administrator already exists; none created.")
    elif generated:
        # Printed once; it is stored only as an argon2id hash.
        click.echo(f"Created administrator '{account.username}' with password: {generated}")
        click.echo("Write it down now: it will not be shown again.")
    else:
        click.echo(f"Created administrator '{account.username}' with the given password.")


def _seed(sample: bool | None) -> None:
    seed.reference_data()
    if sample if sample is not None else current_app.config["SIBOL_SAMPLE_DATA"]:
        seed.sample_data()
    _create_admin()
    click.echo("Seed complete.")


def mqtt_handlers() -> tuple:
    """The features whose device messages `flask mqtt subscribe` takes: importing each handler
    module registers its topic suffix (telemetry: "telemetry", commands: "commands/result")."""
    return (readings, command_results)


def register_commands(app: Flask) -> None:
    add_subscribe_command(app, mqtt_handlers)

    @app.cli.command("setup")
    def setup_command() -> None:
        """Apply the migrations, then seed (what `make run` does before serving)."""
        from flask_migrate import upgrade

        upgrade(revision="heads")
        _seed(None)

    @app.cli.command("seed")
    @click.option("--sample/--no-sample", default=None, help="Seed the spec's sample rows.")
    def seed_command(sample: bool | None) -> None:
        """Seed reference data, the first admin and (SIBOL_SAMPLE_DATA) sample rows."""
        _seed(sample)

    @app.cli.command("backup")
    @click.argument("target", type=click.Path(dir_okay=False))
    def backup_command(target: str) -> None:
        """Write a consistent backup (SQLite copy or mysqldump) to TARGET."""
        from pathlib import Path

        click.echo(f"Backup written to {backup(db.engine, Path(target))}")

    @app.cli.command("restore")
    @click.argument("source", type=click.Path(exists=True, dir_okay=False))
    @click.option("--yes", is_flag=True, help="Do not ask before replacing the data.")
    def restore_command(source: str, yes: bool) -> None:
        """Replace the database's contents with the backup SOURCE."""
        from pathlib import Path

        if not yes:
            click.confirm("This replaces every record in the database. Continue?", abort=True)
        restore(db.engine, Path(source))
        click.echo("Restored.")

    @app.cli.command("digest")
    def digest_command() -> None:
        """Print each table's row count and content hash (compare before backup, after restore)."""
        for table, value in digest().items():
            click.echo(f"{table} {value}")

    @app.cli.command("create-city-admin")
    @click.argument("username")
    @click.option("--email", default="", help="The City Admin's e-mail address")
    def create_city_admin_command(username: str, email: str) -> None:
        """Create a City Admin (manages barangays, sees every barangay); prints its password once."""
        seed.reference_data()
        try:
            account, generated = seed.create_city_admin(username, email)
        except ValueError as err:
            raise click.ClickException(str(err)) from None
        click.echo(f"Created City Admin '{account.username}' with password: {generated}")
        click.echo("Write it down now: it will not be shown again.")

    @app.cli.command("create-admin")
    def create_admin_command() -> None:
        """Create the first administrator from SIBOL_ADMIN_* if no active admin exists."""
        seed.reference_data()
        _create_admin()
