"""The steps every MQTT handler takes before its own work, in one place.

screen() turns a handler's messages into (message, JSON object) pairs it may store and the
refusals it must record: a retained message (a reading the broker would hand out again at every
subscription is not a reading of now), a device over its request limit (identity.device_rates,
counted with its HTTP requests), a payload over the handler's size, one that is not a UTF-8 JSON
object. Each refusal keeps the payload's first bytes (refusals.Refusal).
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Protocol

from flask_babel import gettext as _

from ..errors import Invalid
from ..identity import device_rates
from .payload import decode
from .refusals import Refusal

log = logging.getLogger(__name__)


class Incoming(Protocol):
    @property
    def machine_id(self) -> int: ...
    @property
    def payload(self) -> bytes: ...
    @property
    def retained(self) -> bool: ...


def device(machine_id: int) -> str:
    """The rate limit's name for a machine's device (keys.rate_key gives HTTP requests the same)."""
    return f"device:{machine_id}"


def within_limit(messages: Sequence[Incoming]) -> list[bool]:
    """Per message, whether its device is within its request limit (counted in arrival order)."""
    wanted = Counter(m.machine_id for m in messages)
    try:
        got = device_rates.take({device(m): n for m, n in sorted(wanted.items())})
    except Exception:  # noqa: BLE001 - a limit store that fails must not refuse or park readings
        log.warning("the device request limit could not be counted; this batch is let through", exc_info=True)
        got = {device(m): n for m, n in wanted.items()}
    allowed = {m: got[device(m)] for m in wanted}
    seen: dict[int, int] = defaultdict(int)
    out = []
    for message in messages:
        seen[message.machine_id] += 1
        out.append(seen[message.machine_id] <= allowed[message.machine_id])
    return out


def screen(
    messages: Iterable[Incoming], *, max_bytes: int | None = None
) -> tuple[list[tuple[Incoming, dict]], list[Refusal]]:
    """The messages a handler may take, each with its JSON object, and the refused ones."""
    given = list(messages)
    fresh = [m for m in given if not m.retained]  # a retained copy costs its device nothing
    allowed = iter(within_limit(fresh))
    accepted: list[tuple[Incoming, dict]] = []
    refused: list[Refusal] = []
    for message in given:
        payload = message.payload
        if message.retained:
            reason = _("A retained message: devices publish without the retain flag.")
        elif not next(allowed):
            reason = _("Too many messages: the device's rate limit.")
        elif max_bytes is not None and len(payload) > max_bytes:
            reason = _("The message is longer than %(n)s bytes.", n=max_bytes)
        else:
            try:
                accepted.append((message, decode(payload)))
                continue
            except Invalid as err:
                reason = err.message
        refused.append(Refusal(message.machine_id, reason, payload))
    return accepted, refused
