"""The device simulator behind `flask simulate-devices`: keys issued in the database, readings
posted over HTTP to POST /api/telemetry exactly as a controller would."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import UTC, datetime

import requests
from sqlalchemy import select

from ..extensions import db
from ..models import Area, Machine
from . import keys
from .simulate import DigesterState, reading_at


def simulated_machines(count: int) -> list[Machine]:
    """The first `count` machines, adding simulated ones when there are fewer."""
    machines = list(db.session.scalars(select(Machine).order_by(Machine.id).limit(count)))
    area_id = db.session.scalar(select(Area.id).order_by(Area.id).limit(1))
    while len(machines) < count and area_id is not None:
        machine = Machine(name=f"Simulated Machine {len(machines) + 1}", area_id=area_id)
        db.session.add(machine)
        db.session.commit()
        machines.append(machine)
    return machines


def post_reading(
    http: requests.Session, base_url: str, key: str, reading: dict, ts: datetime
) -> requests.Response:
    """POST one reading as a controller does: its device key, ts in ISO 8601 UTC."""
    return http.post(
        f"{base_url}/api/telemetry",
        json={**reading, "ts": ts.isoformat() + "Z"},
        headers={"Authorization": f"Device {key}"},
        timeout=15,
    )


def run(
    base_url: str,
    count: int,
    interval: float,
    duration: float,
    fault_rate: float,
    silence_rate: float,
    seed: int | None,
    echo: Callable[[str], None] = print,
) -> int:
    """Post readings every `interval` seconds for `duration` seconds (0: forever); returns how many
    the server accepted."""
    rng = random.Random(seed)  # noqa: S311 - simulation, not secrets
    devices = []
    for machine in simulated_machines(count):
        key = keys.issue_key(machine.id, actor_id=None)
        devices.append((machine, key, DigesterState(rng=random.Random(rng.random()))))  # noqa: S311
        echo(f"Machine #{machine.id} {machine.name}: new device key issued")
    http = requests.Session()
    sent, started = 0, time.monotonic()
    while True:
        now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
        for machine, key, state in devices:
            if state.silent_left > 0:
                state.silent_left -= 1
                continue
            if silence_rate and rng.random() < silence_rate:
                state.silent_left = rng.randint(3, 20)
                echo(f"Machine #{machine.id} goes quiet for {state.silent_left} readings")
                continue
            reading = reading_at(state, now, fault_rate=fault_rate)
            try:
                res = post_reading(http, base_url, key, reading, now)
            except requests.RequestException as err:
                echo(f"Machine #{machine.id}: {err}")
                continue
            if res.status_code == 202:
                sent += res.json()["accepted"]  # a second reading in the same second is a duplicate
            else:
                echo(f"Machine #{machine.id}: HTTP {res.status_code} {res.text[:200]}")
        if duration and time.monotonic() - started + interval > duration:
            return sent
        time.sleep(interval)
