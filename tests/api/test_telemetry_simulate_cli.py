"""`flask telemetry simulate` is the simulator's documented name; `flask simulate-devices` stays
as an alias that runs the same command with the same options."""

from __future__ import annotations

from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models.telemetry import Reading
from tests.factories import make_machine


def test_flask_telemetry_simulate_posts_readings_over_http(app, server):
    make_machine("Digester Uno")
    result = app.test_cli_runner().invoke(
        args=["telemetry", "simulate", "--machines", "1", "--interval", "0.2", "--duration", "0.5",
              "--base-url", server, "--fault-rate", "0", "--silence-rate", "0", "--seed", "3"]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Digester Uno: new device key issued" in result.output
    stored = int(result.output.strip().splitlines()[-1].split()[1])
    db.session.rollback()  # a fresh transaction: see the server's writes
    assert stored >= 1 and db.session.scalar(select(func.count()).select_from(Reading)) == stored


def test_both_names_are_listed_with_the_same_options(app):
    runner = app.test_cli_runner()
    listing = runner.invoke(args=["--help"]).output
    assert "telemetry " in listing and "simulate-devices" in listing
    assert "simulate " in runner.invoke(args=["telemetry", "--help"]).output
    documented = runner.invoke(args=["telemetry", "simulate", "--help"])
    alias = runner.invoke(args=["simulate-devices", "--help"])
    assert documented.exit_code == alias.exit_code == 0
    options = documented.output[documented.output.index("Options:") :]
    assert options == alias.output[alias.output.index("Options:") :]
    assert "--poll" in documented.output and "--base-url" in documented.output
