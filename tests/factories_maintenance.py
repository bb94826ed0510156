"""make_* helpers for maintenance tests: operators, requests and tiny valid images."""

from __future__ import annotations

import itertools
from datetime import timedelta

from sibol.i18n.localtime import today
from sibol.maintenance import service
from sibol.models import Account, RoleId
from tests.factories import make_account

_numbers = itertools.count(150000)

# The smallest files each format accepts by its magic bytes.
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 17
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 16
GIF = b"GIF89a" + b"\x00" * 16
WEBP = b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\x00" * 8


def make_operator(**fields) -> Account:
    fields.setdefault("password", None)
    return make_account(role=RoleId.OPERATOR, **fields)


def due_in(days: int = 7) -> str:
    return (today() + timedelta(days=days)).isoformat()


def make_request(
    *,
    actor: Account | None = None,
    assignee: Account | None = None,
    issue: str = "Shredder jammed",
    priority: str = "urgent",
    due: str | None = None,
    files=(),
    **extra,
):
    assignee = assignee or make_operator()
    return service.create_request(
        actor=actor,
        assigned_to=assignee.id,
        issue=issue,
        priority=priority,
        due_date=due or due_in(),
        files=files,
        request_number=extra.pop("request_number", next(_numbers)),
        **extra,
    )
