"""Password hashing (argon2id) and the password rule of spec section 5."""

from __future__ import annotations

import re
import secrets
import string
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..i18n.languages import N_

# argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): about 50 ms a
# hash on a 2-core server. The library default (64 MiB, 3 passes, 4 lanes) took 380 ms here,
# which turned sign-in into the bottleneck and a cheap way to exhaust the server.
_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)

PASSWORD_RULE_MESSAGE = N_("Password must be at least 8 chars and include upper, lower, number, and symbol.")
MAX_PASSWORD_LENGTH = 256
MIN_PASSWORD_LENGTH = 8  # spec section 9; a temporary password needs it too
# How long an administrator's temporary password signs in: as long as the set-password link the
# account's e-mail carries beside it.
TEMPORARY_PASSWORD_LIFETIME = timedelta(hours=72)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(stored_hash: str | None, password: str) -> bool:
    if not stored_hash or not password or len(password) > MAX_PASSWORD_LENGTH:
        return False
    try:
        return _hasher.verify(stored_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored_hash: str) -> bool:
    return _hasher.check_needs_rehash(stored_hash)


def password_rules(password: str) -> dict[str, bool]:
    """The five rules of the checklist and meter."""
    return {
        "length": len(password) >= 8,
        "upper": bool(re.search(r"[A-Z]", password)),
        "lower": bool(re.search(r"[a-z]", password)),
        "number": bool(re.search(r"\d", password)),
        "symbol": bool(re.search(r"[^A-Za-z0-9]", password)),
    }


RULE_NEEDS = {
    "length": _l("at least 8 characters"),
    "upper": _l("an uppercase letter (A-Z)"),
    "lower": _l("a lowercase letter (a-z)"),
    "number": _l("a number (0-9)"),
    "symbol": _l("a symbol such as ! # ? or @"),
}


def password_advice(password: str) -> str | None:
    """What to change so the password meets the rule, in words; None when it already does.

    E.g. "Password needs an uppercase letter (A-Z) and a symbol such as ! # ? or @. Use at least 8
    characters with upper- and lowercase letters, a number and a symbol."
    """
    if len(password) > MAX_PASSWORD_LENGTH:
        return _("Password is too long: use at most %(count)s characters.", count=MAX_PASSWORD_LENGTH)
    missing = [str(RULE_NEEDS[rule]) for rule, met in password_rules(password).items() if not met]
    if not missing:
        return None
    needs = (
        missing[0]
        if len(missing) == 1
        else _("%(first)s and %(last)s", first=", ".join(missing[:-1]), last=missing[-1])
    )
    return _(
        "Password needs %(needs)s. Use at least 8 characters with upper- and lowercase letters, "
        "a number and a symbol.",
        needs=needs,
    )


def meets_password_rule(password: str) -> bool:
    return len(password) <= MAX_PASSWORD_LENGTH and all(password_rules(password).values())


STRENGTH_LABELS = {
    0: _l("Very weak"),
    1: _l("Very weak"),
    2: _l("Weak"),
    3: _l("Medium"),
    4: _l("Strong"),
    5: _l("Very strong"),
}


def strength_label(password: str) -> str:
    """The meter's word; nothing before anything is typed."""
    if not password:
        return ""
    return str(STRENGTH_LABELS[sum(password_rules(password).values())])


def generate_password(length: int = 8) -> str:
    """A random password from a CSPRNG that meets the password rule (spec section 5)."""
    symbols = "!@#$%^&*?-_"
    alphabet = string.ascii_letters + string.digits + symbols
    while True:
        chars = [
            secrets.choice(string.ascii_lowercase),
            secrets.choice(string.ascii_uppercase),
            secrets.choice(string.digits),
            secrets.choice(symbols),
        ] + [secrets.choice(alphabet) for _i in range(max(0, length - 4))]
        # Fisher-Yates with the CSPRNG so the required classes are not always first.
        for i in range(len(chars) - 1, 0, -1):
            j = secrets.randbelow(i + 1)
            chars[i], chars[j] = chars[j], chars[i]
        return "".join(chars)
