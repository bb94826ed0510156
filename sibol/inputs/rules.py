"""Input rules shared by the household and dashboard services: text, kilograms, points, dates.

Each check takes the raw value a form or a JSON body sent and either returns the clean value or
records a message for the field in an `Errors` (sibol/inputs/fields.py); the service raises once with every message, so a
form can show them all and the API names the first field.
"""

from __future__ import annotations

import math
import re
from datetime import date
from decimal import Decimal, InvalidOperation

from flask_babel import gettext as _

from .fields import EMAIL_RE, Errors, required_message

MAX_KG = 100_000  # one collection or rule above 100 tonnes is a typing mistake
MAX_POINTS = 10_000_000
PHONE_RE = re.compile(r"^\+?[0-9 ()./-]{7,20}$")


def text(
    errors: Errors, value, field: str, label: str, *, max_length: int = 100, required: bool = True
) -> str:
    if errors.missing(value, field, label, required=required):
        return ""
    if not isinstance(value, str):
        errors.add(field, _("%(label)s must be text.", label=label))
        return ""
    value = " ".join(value.split())
    if len(value) > max_length:
        errors.add(
            field,
            _("%(label)s must be at most %(max_length)s characters.", label=label, max_length=max_length),
        )
        return ""
    return value


def contact(errors: Errors, value, field: str, label: str) -> str:
    value = text(errors, value, field, label, max_length=254)
    if value and not (
        EMAIL_RE.match(value) or (PHONE_RE.match(value) and sum(c.isdigit() for c in value) >= 7)
    ):
        errors.add(field, _("%(label)s must be a phone number or an e-mail address.", label=label))
        return ""
    return value


def grams(
    errors: Errors, value, field: str, label: str, *, required: bool = True, positive: bool = False
) -> int | None:
    """Kilograms as sent ('1.5', 1.5) -> whole grams. Refuses negatives, text, NaN and infinities."""
    if errors.missing(value, field, label, required=required):
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        errors.add(field, _("%(label)s must be a number of kilograms.", label=label))
        return None
    try:
        kg = Decimal(str(value).strip())
    except InvalidOperation:
        errors.add(field, _("%(label)s must be a number of kilograms.", label=label))
        return None
    if not kg.is_finite():
        errors.add(field, _("%(label)s must be a number of kilograms.", label=label))
        return None
    if kg < 0 or (positive and kg == 0):
        errors.add(
            field,
            _("%(label)s must be more than 0 kg.", label=label)
            if positive
            else _("%(label)s cannot be negative.", label=label),
        )
        return None
    if kg > MAX_KG:
        errors.add(field, _("%(label)s must be at most %(max)s kg.", label=label, max=f"{MAX_KG:,}"))
        return None
    g = int((kg * 1000).to_integral_value())
    if positive and g == 0:
        errors.add(field, _("%(label)s must be at least 0.001 kg.", label=label))
        return None
    return g


def whole(
    errors: Errors,
    value,
    field: str,
    label: str,
    *,
    minimum: int = 0,
    required: bool = True,
    maximum: int = MAX_POINTS,
) -> int | None:
    if errors.missing(value, field, label, required=required):
        return None
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,12}\s*", value):
        number = int(value)
    if number is None:
        errors.add(field, _("%(label)s must be a whole number.", label=label))
        return None
    if number < minimum:
        errors.add(
            field,
            _("%(label)s must be %(minimum)s or more.", label=label, minimum=minimum)
            if minimum
            else _("%(label)s cannot be negative.", label=label),
        )
        return None
    if number > maximum:
        errors.add(field, _("%(label)s must be at most %(max)s.", label=label, max=f"{maximum:,}"))
        return None
    return number


def day(errors: Errors, value, field: str, label: str, *, required: bool = True) -> date | None:
    if errors.missing(value, field, label, required=required):
        return None
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        try:
            parsed = date.fromisoformat(value.strip())
        except ValueError:
            parsed = None
        if parsed and 2000 <= parsed.year <= 2100:
            return parsed
    errors.add(field, _("%(label)s must be a valid date (YYYY-MM-DD).", label=label))
    return None


def choice(errors: Errors, value, field: str, label: str, options: tuple[str, ...], default: str) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        return default
    if isinstance(value, str):
        for option in options:
            if value.strip().lower() == option.lower():
                return option
    errors.add(field, _("%(label)s must be one of: %(value)s.", label=label, value=", ".join(options)))
    return default


def area_list(errors: Errors, value, field: str = "areas", label: str | None = None) -> list[str]:
    """Areas as a list of chips, or one text with commas; trimmed, without duplicates, 1 to 20."""
    label = label or _("Area")
    if isinstance(value, str):
        value = value.split(",")
    if value is None:
        value = []
    if not isinstance(value, list | tuple):
        errors.add(field, _("%(label)s must be text or a list of areas.", label=label))
        return []
    names: list[str] = []
    seen: set[str] = set()
    for item in value:
        if not isinstance(item, str):
            errors.add(field, _("Each area must be text."))
            return []
        name = " ".join(item.split())
        if not name:
            continue
        if len(name) > 100:
            errors.add(field, _("Each area must be at most 100 characters."))
            return []
        if name.lower() not in seen:
            seen.add(name.lower())
            names.append(name)
    if not names:
        errors.add(field, required_message(label))
    elif len(names) > 20:
        errors.add(field, _("A collection covers at most 20 areas."))
        return []
    return names


def kg_text(grams_value: int | None) -> str:
    """1500 -> '1.5', 4000 -> '4', None -> ''."""
    if grams_value is None:
        return ""
    text_value = f"{Decimal(grams_value) / 1000:.3f}".rstrip("0").rstrip(".")
    return text_value or "0"
