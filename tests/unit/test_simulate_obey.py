"""The simulated controller obeys the console's commands, and its readings show them."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from sibol.telemetry.simulate import (
    PUMP_WATER_L,
    REBOOT_SECONDS,
    STIR_PRESSURE_KPA,
    DigesterState,
    obey,
    reading_at,
)

NOON = datetime(2026, 5, 1, 4, 0, 0)  # noon in Manila: the generator runs
MIDNIGHT = datetime(2026, 5, 1, 16, 0, 0)


def twin(seed: int = 3) -> tuple[DigesterState, DigesterState]:
    return DigesterState(rng=random.Random(seed)), DigesterState(rng=random.Random(seed))


def test_stirring_raises_the_pressure_while_it_lasts():
    plain, stirred = twin()
    assert obey(stirred, "stir", 2, NOON) == ("executed", "Stirring for 2 minutes")
    during = reading_at(stirred, NOON + timedelta(minutes=1))
    base = reading_at(plain, NOON + timedelta(minutes=1))
    assert round(during["pressure_kpa"] - base["pressure_kpa"], 2) == STIR_PRESSURE_KPA
    after = reading_at(stirred, NOON + timedelta(minutes=3))
    assert after["pressure_kpa"] == reading_at(plain, NOON + timedelta(minutes=3))["pressure_kpa"]


def test_generator_stop_drops_voltage_and_current_to_zero_and_start_brings_them_back():
    state = DigesterState(rng=random.Random(1))
    assert reading_at(state, NOON)["voltage_v"] > 200
    assert obey(state, "generator", "stop", NOON) == ("executed", "Generator stopped")
    for ts in (NOON, MIDNIGHT):  # said even at night, when a running generator is left out
        reading = reading_at(state, ts)
        assert reading["voltage_v"] == 0.0 and reading["current_a"] == 0.0
    obey(state, "generator", "start", NOON)
    assert reading_at(state, NOON)["voltage_v"] > 200
    assert "voltage_v" not in reading_at(state, MIDNIGHT)


def test_the_feed_pump_adds_water():
    state = DigesterState(rng=random.Random(1))
    obey(state, "feed_pump", "on", NOON)
    assert reading_at(state, NOON)["water_l"] == PUMP_WATER_L
    obey(state, "feed_pump", "off", NOON)
    assert reading_at(state, NOON)["water_l"] == 0.0


def test_set_interval_and_reboot_change_the_pace():
    state = DigesterState(rng=random.Random(1))
    assert obey(state, "set_interval", 30, NOON) == ("executed", "Reading every 30 seconds")
    assert state.interval == 30
    status, _detail = obey(state, "reboot", None, NOON)
    assert status == "executed" and state.rebooting(NOON + timedelta(seconds=REBOOT_SECONDS - 1))
    assert not state.rebooting(NOON + timedelta(seconds=REBOOT_SECONDS))


def test_an_unknown_command_fails_with_a_reason():
    assert obey(DigesterState(rng=random.Random(1)), "dance", None, NOON) == (
        "failed",
        "Unknown command dance None",
    )
