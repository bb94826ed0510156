"""flask setup, flask seed, flask create-admin."""

from __future__ import annotations

import click
from flask import Flask, current_app

from . import seed


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


def register_commands(app: Flask) -> None:
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

    @app.cli.command("create-admin")
    def create_admin_command() -> None:
        """Create the first administrator from SIBOL_ADMIN_* if no active admin exists."""
        seed.reference_data()
        _create_admin()
