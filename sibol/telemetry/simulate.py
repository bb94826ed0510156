"""Realistic readings of a SIBOL machine, for the device simulator and the seeded sample week.

A daily temperature cycle (warmest mid-afternoon), pH drifting slowly, feeding twice a day, the
generator running in daytime, and now and then a fault (a sour or overheated digester, a gas
leak) or a stretch of silence. The simulated controller also obeys the console's commands
(`obey`): stirring raises the gas pressure while it lasts, a stopped generator reports 0 V and 0 A,
the feed pump adds water, set_interval changes the pace and a reboot leaves it silent a moment.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

STIR_PRESSURE_KPA = 1.5  # stirring frees gas trapped in the slurry: the pressure rises while it lasts
PUMP_WATER_L = 5.0
REBOOT_SECONDS = 5


@dataclass
class DigesterState:
    rng: random.Random
    ph: float = 7.2
    fault: str | None = None
    fault_left: int = 0
    silent_left: int = 0
    extra: dict = field(default_factory=dict)
    # What the console's commands changed (obey below).
    stir_until: datetime | None = None
    generator_on: bool = True
    pump_on: bool = False
    interval: float | None = None  # seconds between readings; None: the simulator's own
    reboot_until: datetime | None = None

    def rebooting(self, now: datetime) -> bool:
        return self.reboot_until is not None and now < self.reboot_until


FAULTS = {
    "sour": {"ph": 5.9},
    "hot": {"temperature_c": 43.5},
    "leak": {"pressure_kpa": 0.2, "methane_pct": 42.0},
}


def reading_at(state: DigesterState, ts: datetime, *, fault_rate: float = 0.0) -> dict:
    """One reading at ts (naive UTC); a fault lasts a few readings once it starts."""
    rng = state.rng
    local_hour = (ts.hour + 8 + ts.minute / 60) % 24  # Manila
    state.ph = min(7.8, max(6.7, state.ph + rng.gauss(0, 0.02)))
    daytime = 7 <= local_hour < 19
    feeding = abs(local_hour - 7) < 0.25 or abs(local_hour - 19) < 0.25  # fed at 7 am and 7 pm
    reading = {
        "ph": round(state.ph, 2),
        "temperature_c": round(35 + 3 * math.sin((local_hour - 9) / 24 * 2 * math.pi) + rng.gauss(0, 0.3), 2),
        "pressure_kpa": round(max(0.0, 4 + rng.gauss(0, 0.6)), 2),
        "methane_pct": round(min(100.0, max(0.0, 60 + rng.gauss(0, 2.5))), 1),
        "voltage_v": round(230 + rng.gauss(0, 3), 1) if daytime else 0.0,
        "current_a": round(max(0.0, 5 + rng.gauss(0, 0.8)), 2) if daytime else 0.0,
        "weight_kg": round(max(0.0, rng.uniform(8, 25)), 1) if feeding else 0.0,
        "water_l": round(rng.uniform(8, 25), 1) if feeding else 0.0,
    }
    if state.fault is None and fault_rate and rng.random() < fault_rate:
        state.fault, state.fault_left = rng.choice(sorted(FAULTS)), rng.randint(2, 6)
    if state.fault is not None:
        reading.update(FAULTS[state.fault])
        state.fault_left -= 1
        if state.fault_left <= 0:
            state.fault = None
    if state.stir_until is not None and ts < state.stir_until:
        reading["pressure_kpa"] = round(reading["pressure_kpa"] + STIR_PRESSURE_KPA, 2)
    if state.pump_on:
        reading["water_l"] = PUMP_WATER_L
    if not state.generator_on:
        reading["voltage_v"], reading["current_a"] = 0.0, 0.0  # stopped by a command: say so
    elif not daytime:
        # Night: the generator is off, so its range check would always fail; leave it out.
        reading.pop("voltage_v")
        reading.pop("current_a")
    return reading


def obey(state: DigesterState, command: str, value: object, now: datetime) -> tuple[str, str]:
    """Carry out one command as a controller would; returns its result (status, detail)."""
    if command == "stir" and isinstance(value, int):
        state.stir_until = now + timedelta(minutes=value)
        return "executed", f"Stirring for {value} minutes"
    if command == "feed_pump" and value in ("on", "off"):
        state.pump_on = value == "on"
        return "executed", f"Feed pump {value}"
    if command == "generator" and value in ("start", "stop"):
        state.generator_on = value == "start"
        return "executed", "Generator started" if state.generator_on else "Generator stopped"
    if command == "set_interval" and isinstance(value, int):
        state.interval = float(value)
        return "executed", f"Reading every {value} seconds"
    if command == "reboot":
        state.reboot_until = now + timedelta(seconds=REBOOT_SECONDS)
        return "executed", f"Rebooted ({REBOOT_SECONDS} s offline)"
    return "failed", f"Unknown command {command} {value}"


def backfill(state: DigesterState, start: datetime, end: datetime, step: timedelta) -> list[dict]:
    """Readings from start to end, every step, with "ts" as naive UTC datetimes."""
    rows = []
    ts = start
    while ts <= end:
        rows.append({"ts": ts, **reading_at(state, ts)})
        ts += step
    return rows
