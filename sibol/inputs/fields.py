"""One validation vocabulary: the e-mail rule, the field-error shape, and service errors as field errors.

A field error is a message keyed by the field's spec name (`{"email": "Email is required."}`);
"form" holds a message about no one field. Services raise `Invalid(message, field=..., errors=...)`
once with every message (see `Errors`); /api answers with the first field named and all of them
under "errors" (ServiceError.payload), and pages show them next to their fields (`field_errors`):
both come from ServiceError.field_errors.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from flask_babel import gettext as _

from ..errors import Invalid, ServiceError, TooLarge

EMAIL_MAX = 254
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
FORM = "form"  # the key of a message about the whole form

FieldErrors = dict[str, str]
T = TypeVar("T")


def is_blank(value: object) -> bool:
    """Nothing sent: None, or text with only spaces."""
    return value is None or (isinstance(value, str) and not value.strip())


def required_message(label: str) -> str:
    return _("%(label)s is required.", label=label)


def field_errors(err: ServiceError, default_field: str = FORM) -> FieldErrors:
    """The messages a page shows next to its fields for a refusal by a service (the same
    "errors" the /api answer carries, see ServiceError.payload)."""
    return err.field_errors(default_field)


class Errors:
    """Collects one message per field, in the order the fields were checked."""

    def __init__(self) -> None:
        self.messages: FieldErrors = {}
        self.too_large: TooLarge | None = None

    def add(self, field: str, message: str) -> None:
        self.messages.setdefault(field, message)

    def missing(self, value: object, field: str, label: str, *, required: bool = True) -> bool:
        """Whether nothing was sent; when the field is required, its message is recorded."""
        if not is_blank(value):
            return False
        if required:
            self.add(field, required_message(label))
        return True

    def check(self, rule: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
        """Runs a rule that raises Invalid; its message is recorded and None returned instead."""
        try:
            return rule(*args, **kwargs)
        except TooLarge as err:
            self.too_large = err
            self.messages[err.field or "file"] = err.message
        except Invalid as err:
            self.messages[err.field or FORM] = err.message
        return None

    def raise_if_any(self) -> None:
        """Raises Invalid naming the first field and carrying every message (TooLarge alone: as is)."""
        if self.too_large is not None and len(self.messages) == 1:
            raise self.too_large
        if self.messages:
            field, message = next(iter(self.messages.items()))
            raise Invalid(message, field=field, errors=dict(self.messages))
