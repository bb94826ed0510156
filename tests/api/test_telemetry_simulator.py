"""The device simulator posts through the real HTTP API; the sample week seeds once."""

from __future__ import annotations

from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models.telemetry import Alert, DeviceKey, Reading, Rollup
from sibol.telemetry import seed as telemetry_seed
from tests.factories import make_machine


def count(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


def test_simulate_devices_issues_keys_and_posts_readings_over_http(app, server):
    make_machine("Digester One")
    runner = app.test_cli_runner()
    result = runner.invoke(
        args=[
            "simulate-devices",
            "--machines", "2",
            "--interval", "0.2",
            "--duration", "0.5",
            "--base-url", server,
            "--fault-rate", "1",
            "--silence-rate", "0",
            "--seed", "7",
        ]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Simulated Machine 2: new device key issued" in result.output
    db.session.rollback()  # a fresh transaction: MariaDB's snapshot must see the server's writes
    assert count(DeviceKey) == 2
    stored = int(result.output.strip().splitlines()[-1].split()[1])
    assert stored >= 2 and count(Reading) == stored
    assert count(Alert) >= 1  # every reading starts or continues a fault


def test_the_sample_week_is_seeded_once_with_rollups_and_alert_history(app):
    for n in range(4):
        make_machine(f"Sample {n}")
    stored = telemetry_seed.sample_data()
    assert stored == 3 * (7 * 96 + 1)
    assert telemetry_seed.sample_data() == 0
    machines = set(db.session.scalars(select(Reading.machine_id).distinct()))
    assert len(machines) == 3
    assert db.session.scalar(select(func.sum(Rollup.cells("ph").n)).where(Rollup.period == "d")) == stored
    assert db.session.scalar(select(func.count()).select_from(Alert).where(Alert.metric == "ph")) >= 1
