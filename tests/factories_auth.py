"""Helpers for the auth tests: reading links and codes out of sent e-mail."""

from __future__ import annotations

import re

from sibol.models import Barangay


def signup_body(email: str = "juan.dela-cruz@example.test", **overrides) -> dict:
    from sqlalchemy import select

    from sibol.extensions import db

    barangay = db.session.scalar(select(Barangay).order_by(Barangay.id))
    body = {
        "firstName": "Juan",
        "lastName": "Dela Cruz",
        "email": email,
        "areaId": barangay.id,
        "role": 4,
        "roleId": 4,
        "username": "ignored",
        "isSSO": False,
        "FirstName": "Juan",
        "LastName": "Dela Cruz",
        "Area_id": barangay.id,
        "Email": email,
        "Roles": 4,
    }
    body.update(overrides)
    return body


def link_in(text: str, path: str) -> str:
    match = re.search(rf"(https?://\S+{re.escape(path)}\?token=[A-Za-z0-9_\-]+)", text)
    assert match, f"no {path} link in: {text}"
    return match.group(1)


def token_in(text: str, path: str) -> str:
    return link_in(text, path).split("token=", 1)[1]


def code_in(text: str) -> str:
    match = re.search(r"code is: (\d{6})", text)
    assert match, text
    return match.group(1)
