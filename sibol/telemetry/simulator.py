"""The device simulator behind `flask simulate-devices`: keys issued in the database, readings
posted over HTTP to POST /api/telemetry exactly as a controller would, and the console's commands
taken from GET /api/device/commands, obeyed (simulate.obey) and answered with their results.

Each machine keeps its own pace (set_interval changes it). The clock and the sleep can be given,
so a test runs minutes of simulated time in a moment against a real server."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import requests
from sqlalchemy import select

from ..devices import service as device_keys
from ..extensions import db
from ..models import Area, Machine
from .simulate import DigesterState, obey, reading_at


@dataclass
class SimulatedDevice:
    machine_id: int
    name: str
    key: str
    state: DigesterState
    next_reading: float = 0.0  # seconds since the start
    next_poll: float = 0.0
    held: tuple[int, str, str] | None = None  # a reboot's result, sent once it is back


def simulated_machines(count: int) -> list[Machine]:
    """The first `count` machines, adding simulated ones when there are fewer."""
    machines = list(db.session.scalars(select(Machine).order_by(Machine.id).limit(count)))
    area_id = db.session.scalar(select(Area.id).where(Area.retired_at.is_(None)).order_by(Area.id).limit(1))
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


class Loop:
    """One run: every machine polls its commands and posts readings when each is due."""

    def __init__(self, base_url: str, devices: list[SimulatedDevice], *, interval: float, poll: float,
                 fault_rate: float, silence_rate: float, rng: random.Random, echo: Callable[[str], None],
                 clock: Callable[[], float], wall: Callable[[], datetime]) -> None:  # fmt: skip
        self.base_url, self.devices, self.interval, self.poll = base_url, devices, interval, poll
        self.fault_rate, self.silence_rate, self.rng, self.echo = fault_rate, silence_rate, rng, echo
        self.clock, self.wall = clock, wall
        self.http = requests.Session()
        self.sent = 0

    def _headers(self, dev: SimulatedDevice) -> dict:
        return {"Authorization": f"Device {dev.key}"}

    def _answer(self, dev: SimulatedDevice, command_id: int, status: str, detail: str) -> None:
        try:
            res = self.http.post(
                f"{self.base_url}/api/device/commands/{command_id}/result",
                json={"status": status, "detail": detail},
                headers=self._headers(dev),
                timeout=15,
            )
            self.echo(
                f"Machine #{dev.machine_id}: command #{command_id} {status} ({detail}): HTTP {res.status_code}"
            )
        except requests.RequestException as err:
            self.echo(f"Machine #{dev.machine_id}: {err}")

    def take_commands(self, dev: SimulatedDevice, now: datetime) -> None:
        try:
            res = self.http.get(
                f"{self.base_url}/api/device/commands", headers=self._headers(dev), timeout=15
            )
        except requests.RequestException as err:
            self.echo(f"Machine #{dev.machine_id}: {err}")
            return
        if res.status_code != 200:
            self.echo(f"Machine #{dev.machine_id}: commands HTTP {res.status_code} {res.text[:200]}")
            return
        for cmd in res.json()["commands"]:
            status, detail = obey(dev.state, cmd["command"], cmd["value"], now)
            self.echo(
                f"Machine #{dev.machine_id} obeys #{cmd['id']} {cmd['command']} {cmd['value'] or ''}".rstrip()
            )
            if dev.state.rebooting(now):
                dev.held = (cmd["id"], status, detail)  # answered once it is back up
                return  # a rebooting controller takes nothing more
            self._answer(dev, cmd["id"], status, detail)

    def post(self, dev: SimulatedDevice, now: datetime) -> None:
        state = dev.state
        if state.silent_left > 0:
            state.silent_left -= 1
            return
        if self.silence_rate and self.rng.random() < self.silence_rate:
            state.silent_left = self.rng.randint(3, 20)
            self.echo(f"Machine #{dev.machine_id} goes quiet for {state.silent_left} readings")
            return
        reading = reading_at(state, now, fault_rate=self.fault_rate)
        try:
            res = post_reading(self.http, self.base_url, dev.key, reading, now)
        except requests.RequestException as err:
            self.echo(f"Machine #{dev.machine_id}: {err}")
            return
        if res.status_code == 202:
            self.sent += res.json()["accepted"]  # a second reading in the same second is a duplicate
        else:
            self.echo(f"Machine #{dev.machine_id}: HTTP {res.status_code} {res.text[:200]}")

    def step(self, elapsed: float) -> float:
        """Do what is due at `elapsed` seconds; returns when the next thing is due."""
        now = self.wall().replace(microsecond=0)
        for dev in self.devices:
            if self._silent_while_rebooting(dev, now, elapsed):
                continue
            if dev.held is not None:
                self._answer(dev, *dev.held)
                dev.held = None
            if elapsed >= dev.next_poll:
                self.take_commands(dev, now)
                dev.next_poll = elapsed + self.poll
                if self._silent_while_rebooting(dev, now, elapsed):
                    continue
            if elapsed >= dev.next_reading:
                self.post(dev, now)
                dev.next_reading = elapsed + (dev.state.interval or self.interval)
        due = [min(d.next_poll, d.next_reading) for d in self.devices]
        return min(due) if due else elapsed + self.interval

    @staticmethod
    def _silent_while_rebooting(dev: SimulatedDevice, now: datetime, elapsed: float) -> bool:
        """A rebooting controller neither polls nor reports: both wait until it is back."""
        if dev.state.reboot_until is None or not dev.state.rebooting(now):
            return False
        back = elapsed + (dev.state.reboot_until - now).total_seconds()
        dev.next_poll, dev.next_reading = max(dev.next_poll, back), max(dev.next_reading, back)
        return True


def run(
    base_url: str,
    count: int,
    interval: float,
    duration: float,
    fault_rate: float,
    silence_rate: float,
    seed: int | None,
    echo: Callable[[str], None] = print,
    *,
    poll: float = 2.0,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    wall: Callable[[], datetime] | None = None,
) -> int:
    """Post readings every `interval` seconds (per machine, until a set_interval command changes it)
    and take commands every `poll` seconds, for `duration` seconds (0: forever); returns how many
    readings the server accepted."""
    rng = random.Random(seed)  # noqa: S311 - simulation, not secrets
    devices = []
    for machine in simulated_machines(count):
        key = device_keys.issue_key(machine.id, actor_id=None)
        state = DigesterState(rng=random.Random(rng.random()))  # noqa: S311
        devices.append(SimulatedDevice(machine.id, machine.name, key, state))
        echo(f"Machine #{machine.id} {machine.name}: new device key issued")
    started = clock()
    if wall is None:
        origin = datetime.now(UTC).replace(tzinfo=None)
        wall = lambda: origin + timedelta(seconds=clock() - started)  # noqa: E731 - follows the clock
    loop = Loop(base_url, devices, interval=interval, poll=poll, fault_rate=fault_rate,
                silence_rate=silence_rate, rng=rng, echo=echo, clock=clock, wall=wall)  # fmt: skip
    while True:
        elapsed = clock() - started
        next_due = loop.step(elapsed)
        if duration and next_due > duration:
            return loop.sent
        sleep(max(0.0, next_due - (clock() - started)))
