"""The commands a SIBOL controller understands, the values each takes, and which ask first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from flask_babel import gettext as _

from ..errors import Invalid
from ..i18n.languages import N_
from ..inputs.numbers import finite

# How long a command waits to be delivered, and then to be answered, before it expires.
DELIVERY_TTL = timedelta(minutes=10)
ANSWER_TTL = timedelta(minutes=10)


@dataclass(frozen=True)
class Kind:
    name: str
    label: str
    minimum: int | None = None  # a whole number between minimum and maximum ...
    maximum: int | None = None
    unit: str = ""
    choices: tuple[str, ...] = ()  # ... or one of these words; neither: no value at all


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("stir", N_("Stir"), 1, 60, N_("minutes")),
        Kind("feed_pump", N_("Feed pump"), choices=("on", "off")),
        Kind("generator", N_("Generator"), choices=("start", "stop")),
        Kind("set_interval", N_("Reading interval"), 10, 3600, N_("seconds")),
        Kind("reboot", N_("Reboot")),
    )
}

# The words a person reads for each status and for who changed it (templates translate them).
SHOWN_WORDS = (
    N_("queued"),
    N_("delivered"),
    N_("executed"),
    N_("failed"),
    N_("expired"),
    N_("cancelled"),
    N_("device"),
    N_("system"),
    N_("on"),
    N_("off"),
    N_("start"),
    N_("stop"),
)

# Commands that stop the machine's power or its controller: a person confirms them first.
NEEDS_CONFIRMATION = {("generator", "stop"), ("reboot", None)}


def parse_command(raw: object) -> Kind:
    """The kind named by `command`, or Invalid naming the field."""
    if not isinstance(raw, str) or not raw.strip():
        raise Invalid(_("command is required: one of %(kinds)s.", kinds=", ".join(KINDS)), field="command")
    kind = KINDS.get(raw.strip().lower())
    if kind is None:
        raise Invalid(
            _("command must be one of %(kinds)s.", kinds=", ".join(KINDS)),
            field="command",
        )
    return kind


def parse_value(kind: Kind, raw: object) -> str | None:
    """The value as stored (text), or Invalid naming `value`. Numbers may come as text (forms)."""
    empty = raw is None or (isinstance(raw, str) and not raw.strip())
    if kind.choices:
        word = raw.strip().lower() if isinstance(raw, str) else None
        if word not in kind.choices:
            raise Invalid(
                _(
                    "value of %(command)s must be %(choices)s.",
                    command=kind.name,
                    choices=" or ".join(kind.choices),
                ),
                field="value",
            )
        return word
    if kind.minimum is None:
        if not empty:
            raise Invalid(_("%(command)s takes no value.", command=kind.name), field="value")
        return None
    number: float | None = None
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        number = finite(raw)
    elif isinstance(raw, str) and raw.strip().isdecimal() and len(raw.strip()) <= 6:
        number = float(raw.strip())
    if number is None or number != int(number):
        raise Invalid(
            _(
                "value of %(command)s must be a whole number of %(unit)s (%(low)s-%(high)s).",
                command=kind.name,
                unit=kind.unit,
                low=kind.minimum,
                high=kind.maximum,
            ),
            field="value",
        )
    if not kind.minimum <= number <= (kind.maximum or 0):
        raise Invalid(
            _(
                "value of %(command)s must be between %(low)s and %(high)s %(unit)s.",
                command=kind.name,
                low=kind.minimum,
                high=kind.maximum,
                unit=kind.unit,
            ),
            field="value",
        )
    return str(int(number))


def value_json(command: str, value: str | None) -> int | str | None:
    """The stored text as the API shows it: a number for stir and set_interval."""
    kind = KINDS.get(command)
    if value is not None and kind is not None and kind.minimum is not None and value.isdecimal():
        return int(value)
    return value


def needs_confirmation(command: str, value: str | None) -> bool:
    return (command, value) in NEEDS_CONFIRMATION


def describe(command: str, value: str | None) -> str:
    """A person's words for a command: "Stir 10 minutes", "Generator stop"."""
    kind = KINDS.get(command)
    if kind is None:
        return command
    if value is None:
        return _(kind.label)
    shown = _(value) if kind.choices else value
    return f"{_(kind.label)} {shown}{' ' + _(kind.unit) if kind.unit else ''}"
