"""The metrics a SIBOL controller reports: labels, units, hard limits and default healthy ranges.

The default ranges are for a mesophilic digester; docs/telemetry.md says why each was chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..models.telemetry import METRICS, SERIES_METRICS

__all__ = ["DEFAULT_RANGES", "METRICS", "SERIES_METRICS", "Metric", "metric_info"]


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    unit: str
    minimum: float | None = None  # a reading below is refused (400), not merely unhealthy
    maximum: float | None = None


_INFO = {
    "weight_kg": Metric("weight_kg", "Waste fed", "kg", minimum=0),
    "ph": Metric("ph", "pH", "", minimum=0, maximum=14),
    "temperature_c": Metric("temperature_c", "Temperature", "°C"),
    "pressure_kpa": Metric("pressure_kpa", "Gas pressure", "kPa", minimum=0),
    "methane_pct": Metric("methane_pct", "Methane", "%", minimum=0, maximum=100),
    "voltage_v": Metric("voltage_v", "Generator voltage", "V"),
    "current_a": Metric("current_a", "Generator current", "A"),
    "water_l": Metric("water_l", "Water added", "L", minimum=0),
    "power_w": Metric("power_w", "Generator power", "W"),
}

# Healthy ranges (low, high) of a mesophilic digester and its generator.
DEFAULT_RANGES: dict[str, tuple[float, float]] = {
    "weight_kg": (0.0, 100.0),
    "ph": (6.5, 8.0),
    "temperature_c": (30.0, 40.0),
    "pressure_kpa": (0.5, 12.0),
    "methane_pct": (50.0, 75.0),
    "voltage_v": (207.0, 253.0),
    "current_a": (0.0, 20.0),
    "water_l": (0.0, 150.0),
}


def metric_info(key: str) -> Metric:
    return _INFO[key]
