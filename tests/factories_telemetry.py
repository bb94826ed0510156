"""Helpers for the telemetry tests: machines with device keys, readings as a device sends them."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sibol.devices import keys
from tests.factories import make_machine

MANILA = ZoneInfo("Asia/Manila")


def keyed_machine(name: str | None = None):
    """(machine, raw device key)."""
    machine = make_machine(name)
    return machine, keys.issue_key(machine.id, actor_id=None)


def device(key: str) -> dict:
    return {"Authorization": f"Device {key}"}


def iso(minutes_ago: float = 0, *, now: datetime | None = None) -> str:
    """A time `minutes_ago` before now (or before `now`), as ISO 8601 with +08:00 as a controller
    in Manila sends it."""
    ts = (now or datetime.now(UTC)) - timedelta(minutes=minutes_ago)
    return ts.astimezone(MANILA).isoformat(timespec="seconds")


def healthy(**values) -> dict:
    reading = {
        "weight_kg": 12.5,
        "ph": 7.1,
        "temperature_c": 35.0,
        "pressure_kpa": 4.0,
        "methane_pct": 60.0,
        "voltage_v": 230.0,
        "current_a": 5.0,
        "water_l": 10.0,
    }
    reading.update(values)
    return reading


def hour_start(hours_back: int) -> datetime:
    """The start of the clock hour `hours_back` hours before now (UTC): readings placed inside it
    fall in one hourly bucket."""
    return datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=hours_back)


def readings_in(hour: datetime, minutes: Iterable[int], **values) -> list[dict]:
    """One reading carrying `values` at each of these minutes past `hour` (a device may send any
    of the metrics; `**healthy(...)` sends them all)."""
    return [{"ts": (hour + timedelta(minutes=m)).isoformat(), **values} for m in minutes]
