"""flask generate-machines: many machines for benchmarks."""

from __future__ import annotations

import time

import click
from flask import Flask

from .seed import DEFAULT_GENERATED, generate_machines


def register_commands(app: Flask) -> None:
    @app.cli.command("generate-machines")
    @click.option(
        "--count",
        "-n",
        default=DEFAULT_GENERATED,
        show_default=True,
        type=click.IntRange(1, 10_000_000),
        help="How many machines to add.",
    )
    def generate_machines_command(count: int) -> None:
        """Add COUNT machines (with search terms) for benchmarks."""
        started = time.perf_counter()
        generate_machines(count)
        click.echo(f"Added {count} machines in {time.perf_counter() - started:.1f} s.")
