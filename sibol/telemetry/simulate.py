"""Realistic readings of a SIBOL machine, for the device simulator and the seeded sample week.

A daily temperature cycle (warmest mid-afternoon), pH drifting slowly, feeding twice a day, the
generator running in daytime, and now and then a fault (a sour or overheated digester, a gas
leak) or a stretch of silence.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass
class DigesterState:
    rng: random.Random
    ph: float = 7.2
    fault: str | None = None
    fault_left: int = 0
    silent_left: int = 0
    extra: dict = field(default_factory=dict)


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
    if not daytime:
        # Night: the generator is off, so its range check would always fail; leave it out.
        reading.pop("voltage_v")
        reading.pop("current_a")
    return reading


def backfill(state: DigesterState, start: datetime, end: datetime, step: timedelta) -> list[dict]:
    """Readings from start to end, every step, with "ts" as naive UTC datetimes."""
    rows = []
    ts = start
    while ts <= end:
        rows.append({"ts": ts, **reading_at(state, ts)})
        ts += step
    return rows
