"""Usernames: the two derivations of spec section 5, the characters a username may hold, and
making one unique over the installation (usernames are not per barangay)."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from ..extensions import db
from ..models import Account
from . import tenancy

USERNAME_MAX = 30
USERNAME_RE = re.compile(r"[A-Za-z0-9._-]{1,30}")
SUFFIX_MAX = 6  # digits a unique() suffix may take; more would mean a million namesakes


def from_email(email: str | None, first: str = "", last: str = "") -> str:
    """Sign-up: the e-mail's local part (letters, digits . _ -); without one, first and last name
    (lowercase letters and digits). At most 30 characters."""
    if email and "@" in email:
        base = re.sub(r"[^A-Za-z0-9._-]", "", email.split("@", 1)[0])[:USERNAME_MAX]
        if base:
            return base
    return re.sub(r"[^a-z0-9]", "", f"{first}{last}".lower())[:USERNAME_MAX]


def from_names(first_name: str, last_name: str) -> str:
    """Admin create: lowercase, spaces become dots, only a-z 0-9 . _ - kept, at most 30."""
    base = f"{first_name.strip()} {last_name.strip()}".strip().lower()
    base = re.sub(r"\s+", ".", base)
    base = re.sub(r"[^a-z0-9._-]", "", base)
    base = re.sub(r"\.{2,}", ".", base).strip(".")
    return base[:USERNAME_MAX].rstrip(".")


def is_valid(username: str) -> bool:
    """Letters, digits, dot, underscore and hyphen; 1 to 30 characters."""
    return USERNAME_RE.fullmatch(username) is not None


def is_taken(username: str) -> bool:
    """Whether any account, in any barangay, has this username (ignoring case)."""
    with tenancy.unscoped():
        found = db.session.scalar(select(Account.id).where(func.lower(Account.username) == username.lower()))
    return found is not None


def unique(base: str) -> str:
    """base, or base2, base3, ... (kept within 30 characters) when taken, ignoring case."""
    base = (base or "user")[:USERNAME_MAX]
    # Every candidate starts with this prefix: one query finds all the names in the way.
    prefix = base[: USERNAME_MAX - SUFFIX_MAX].lower()
    with tenancy.unscoped():
        taken = {
            name.lower()
            for name in db.session.scalars(
                select(Account.username).where(
                    func.lower(func.substr(Account.username, 1, len(prefix))) == prefix
                )
            )
        }
    n = 1
    candidate = base
    while candidate.lower() in taken:
        n += 1
        suffix = str(n)
        candidate = base[: USERNAME_MAX - len(suffix)] + suffix
    return candidate
