"""The per-device rate limit of the device routes (SIBOL_TELEMETRY_RATE_LIMIT) for what arrives
over MQTT: counted in the subscriber's memory, one window per device and kind of message."""

from __future__ import annotations

from flask import current_app
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter


class DeviceRates:
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.spec = ""
        self.item = parse("120 per minute")

    def allow(self, machine_id: int) -> bool:
        if not current_app.config.get("RATELIMIT_ENABLED", True):
            return True
        spec = current_app.config["SIBOL_TELEMETRY_RATE_LIMIT"]
        if spec != self.spec:
            self.spec, self.item = spec, parse(spec)
        return self.limiter.hit(self.item, self.kind, str(machine_id))
