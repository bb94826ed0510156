"""What the subscriber does with a message, by the topic's suffix after sibol/v1/machines/{id}/.

A handler takes a list of messages of its suffix (in the order they arrived) and stores them,
committing its own transaction; the subscriber acknowledges the messages to the broker only
after every handler of the batch has returned.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .settings import TOPIC_ROOT

Handler = Callable[[list["Message"]], object]
HANDLERS: dict[str, Handler] = {}
_PREFIX = TOPIC_ROOT + "/"


@dataclass(frozen=True)
class Message:
    machine_id: int
    suffix: str  # "telemetry", "commands/result", ...
    payload: bytes
    retained: bool = False  # handed out by the broker as a retained message (refused: intake)


def register(suffix: str, handler: Handler) -> None:
    """Have `handler` store the messages published to sibol/v1/machines/{id}/{suffix}."""
    HANDLERS[suffix] = handler


def parse_topic(topic: str) -> tuple[int, str] | None:
    """sibol/v1/machines/12/telemetry -> (12, "telemetry"); None for any other topic."""
    if not topic.startswith(_PREFIX):
        return None
    machine, _sep, suffix = topic[len(_PREFIX) :].partition("/")
    if not machine.isdecimal() or len(machine) > 10 or not suffix:
        return None
    return int(machine), suffix


def subscriptions(group: str | None) -> list[str]:
    """The topic filters of the registered suffixes, shared by `group` when one is given."""
    filters = [f"{TOPIC_ROOT}/+/{suffix}" for suffix in sorted(HANDLERS)]
    return [f"$share/{group}/{f}" for f in filters] if group else filters


def handle(messages: list[Message]) -> dict[str, object]:
    """Run each suffix's handler on its messages, in arrival order; returns their results."""
    by_suffix: dict[str, list[Message]] = {}
    for message in messages:
        by_suffix.setdefault(message.suffix, []).append(message)
    return {suffix: HANDLERS[suffix](group) for suffix, group in by_suffix.items() if suffix in HANDLERS}
