"""The second factor: an authenticator app's codes (TOTP, RFC 6238, with pyotp) and ten
single-use recovery codes. Callers commit.

- The secret is kept encrypted (Fernet, with a key derived from SECRET_KEY). It is shown while
  the enrolment waits for its first code, and never once that code confirmed it.
- A code is accepted for the 30-second step before, the current one and the one after (a phone
  clock a little off still works), and only for a step later than the last one accepted. One
  conditional UPDATE of `last_step` decides it, so a code is never accepted twice, not even by
  simultaneous sign-ins.
- Recovery codes are ten characters (50 bits) from an alphabet without look-alikes, kept as an
  HMAC-SHA256 keyed with another key derived from SECRET_KEY (a copy of the table alone cannot
  be searched for them), each used once by a conditional UPDATE.
- `SIBOL_REQUIRE_2FA` says who must have one: off, admins (Admins and City Admins) or all.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from typing import Any, cast

import pyotp
from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app, g
from sqlalchemy import CursorResult, delete, func, or_, select, update

from ..extensions import db
from ..models import Account, RoleId, utcnow
from ..models.admin import AuditAction, AuditEntry
from ..models.auth import AccountTotp, RecoveryCode

ISSUER = "SIBOL"
STEP_SECONDS = 30
RECOVERY_CODE_COUNT = 10
RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i
RECOVERY_LENGTH = 10
CODE_RE = re.compile(r"^\d{6}$")
ADMIN_ROLES = frozenset({RoleId.ADMIN, RoleId.CITY_ADMIN})


def clock() -> float:
    """Seconds since the epoch (tests move it to reach another time step)."""
    return time.time()


# Keys -----------------------------------------------------------------------------------------
def _derived_key(purpose: bytes) -> bytes:
    secret = current_app.config["SECRET_KEY"]
    material = secret if isinstance(secret, bytes) else str(secret).encode("utf-8")
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose).derive(material)


def _fernet() -> Fernet:
    return Fernet(base64.urlsafe_b64encode(_derived_key(b"sibol totp secret")))


def _seal(secret: str) -> str:
    return _fernet().encrypt(secret.encode("ascii")).decode("ascii")


def _open(sealed: str) -> str | None:
    """The secret, or None when it cannot be read (SECRET_KEY changed since the enrolment)."""
    try:
        return _fernet().decrypt(sealed.encode("ascii")).decode("ascii")
    except (InvalidToken, ValueError):
        return None


def _recovery_hash(account_id: int, normalized: str) -> str:
    key = _derived_key(b"sibol recovery codes")
    return hmac.new(key, f"{account_id}:{normalized}".encode(), hashlib.sha256).hexdigest()


# Policy ---------------------------------------------------------------------------------------
def required_for(account: Account) -> bool:
    """Whether SIBOL_REQUIRE_2FA asks this account to have a second factor."""
    mode = current_app.config.get("SIBOL_REQUIRE_2FA", "off")
    if mode == "all":
        return True
    return mode == "admins" and account.role_id in ADMIN_ROLES


def _cache() -> dict[int, bool]:
    if "sibol_totp_enrolled" not in g:
        g.sibol_totp_enrolled = {}
    return cast("dict[int, bool]", g.sibol_totp_enrolled)


def enrolled(account: Account) -> bool:
    """The account has a confirmed authenticator (asked once a request)."""
    known = _cache()
    if account.id not in known:
        confirmed = db.session.scalar(
            select(AccountTotp.confirmed_at).where(AccountTotp.account_id == account.id)
        )
        known[account.id] = confirmed is not None
    return known[account.id]


def must_enrol(account: Account) -> bool:
    """The account must set up its authenticator before it may do anything else."""
    return required_for(account) and not enrolled(account)


# Enrolment ------------------------------------------------------------------------------------
def _row(account: Account) -> AccountTotp | None:
    return db.session.get(AccountTotp, account.id, populate_existing=True)


def start(account: Account) -> str:
    """A new secret waiting for its first code (replacing an unconfirmed one); the caller
    checks the account has no confirmed one. Returns the secret (base32)."""
    secret = pyotp.random_base32()
    row = _row(account)
    if row is None:
        db.session.add(AccountTotp(account_id=account.id, secret_encrypted=_seal(secret)))
    else:
        row.secret_encrypted, row.confirmed_at, row.last_step, row.created_at = (
            _seal(secret),
            None,
            None,
            utcnow(),
        )
    return secret


def pending_secret(account: Account) -> str | None:
    """The secret of an enrolment still waiting for its first code; None otherwise (a confirmed
    secret is never read out)."""
    row = _row(account)
    if row is None or row.confirmed_at is not None:
        return None
    return _open(row.secret_encrypted)


def provisioning_uri(account: Account, secret: str) -> str:
    """The otpauth:// address an authenticator app reads from the QR code."""
    return pyotp.TOTP(secret).provisioning_uri(name=account.username, issuer_name=ISSUER)


def normalize_code(value: str) -> str:
    return "".join(value.split())


def _matching_step(secret: str, code: str) -> int | None:
    """The latest of the steps around now whose code this is."""
    totp = pyotp.TOTP(secret)
    current = int(clock()) // STEP_SECONDS
    found = None
    for step in (current - 1, current, current + 1):
        if hmac.compare_digest(totp.generate_otp(step), code):
            found = step
    return found


def _take_step(account_id: int, step: int, *, confirmed: bool) -> bool:
    """Record the step as used, only when it is later than the last one; True when it was."""
    state = AccountTotp.confirmed_at.is_not(None) if confirmed else AccountTotp.confirmed_at.is_(None)
    statement = (
        update(AccountTotp)
        .where(
            AccountTotp.account_id == account_id,
            state,
            or_(AccountTotp.last_step.is_(None), AccountTotp.last_step < step),
        )
        .values(last_step=step)
    )
    result = cast(
        "CursorResult[Any]", db.session.execute(statement, execution_options={"synchronize_session": False})
    )
    return bool(result.rowcount)


def accept_code(account: Account, code: str, *, confirmed: bool = True) -> bool:
    """A six-digit code of the account's authenticator (the confirmed one, or with confirmed=False
    the one waiting for its first code), accepted once; the caller commits."""
    code = normalize_code(code)
    row = _row(account)
    if not CODE_RE.match(code) or row is None or (row.confirmed_at is not None) != confirmed:
        return False
    secret = _open(row.secret_encrypted)
    step = _matching_step(secret, code) if secret else None
    return step is not None and _take_step(account.id, step, confirmed=confirmed)


def confirm(account: Account) -> list[str]:
    """The enrolment waiting for its first code (already accepted) is confirmed; ten new recovery
    codes replace any earlier ones. Returns them as shown to the person (the caller commits)."""
    db.session.execute(
        update(AccountTotp).where(AccountTotp.account_id == account.id).values(confirmed_at=utcnow()),
        execution_options={"synchronize_session": False},
    )
    codes = issue_recovery_codes(account)
    _cache()[account.id] = True
    audit(AuditAction.TOTP_ENROL, account)
    return codes


def remove(account: Account) -> None:
    """The authenticator and the recovery codes are gone (the caller commits)."""
    db.session.execute(delete(RecoveryCode).where(RecoveryCode.account_id == account.id))
    db.session.execute(delete(AccountTotp).where(AccountTotp.account_id == account.id))
    _cache()[account.id] = False
    audit(AuditAction.TOTP_DISABLE, account)


# Recovery codes -------------------------------------------------------------------------------
def _normalize_recovery(value: str) -> str:
    return "".join(ch for ch in value.lower() if ch not in " -")


def issue_recovery_codes(account: Account) -> list[str]:
    """Ten new codes, `xxxxx-xxxxx`; earlier codes of the account stop working."""
    db.session.execute(delete(RecoveryCode).where(RecoveryCode.account_id == account.id))
    shown = []
    for _i in range(RECOVERY_CODE_COUNT):
        raw = "".join(secrets.choice(RECOVERY_ALPHABET) for _j in range(RECOVERY_LENGTH))
        db.session.add(RecoveryCode(account_id=account.id, code_hash=_recovery_hash(account.id, raw)))
        shown.append(f"{raw[:5]}-{raw[5:]}")
    return shown


def looks_like_recovery_code(value: str) -> bool:
    normalized = _normalize_recovery(value)
    return len(normalized) == RECOVERY_LENGTH and all(ch in RECOVERY_ALPHABET for ch in normalized)


def use_recovery_code(account: Account, value: str) -> bool:
    """Spend one unused recovery code of the account; True when it was one (the caller commits)."""
    if not looks_like_recovery_code(value):
        return False
    statement = (
        update(RecoveryCode)
        .where(
            RecoveryCode.account_id == account.id,
            RecoveryCode.code_hash == _recovery_hash(account.id, _normalize_recovery(value)),
            RecoveryCode.used_at.is_(None),
        )
        .values(used_at=utcnow())
    )
    result = cast(
        "CursorResult[Any]", db.session.execute(statement, execution_options={"synchronize_session": False})
    )
    if not result.rowcount:
        return False
    audit(AuditAction.RECOVERY_CODE_USED, account)
    return True


def recovery_codes_left(account: Account) -> int:
    return int(
        db.session.scalar(
            select(func.count())
            .select_from(RecoveryCode)
            .where(RecoveryCode.account_id == account.id, RecoveryCode.used_at.is_(None))
        )
        or 0
    )


def check_second_factor(account: Account, value: str) -> bool:
    """A sign-in's second factor: a code of the authenticator or an unused recovery code; each
    is accepted once (the caller commits)."""
    value = value.strip()
    if CODE_RE.match(normalize_code(value)):
        return accept_code(account, value)
    return use_recovery_code(account, value)


# Audit ----------------------------------------------------------------------------------------
def audit(action: AuditAction, account: Account) -> None:
    """The account's own second-factor event, in the audit the admin console lists."""
    db.session.add(
        AuditEntry(
            action=str(action),
            actor_id=account.id,
            actor_username=account.username,
            target_id=account.id,
            target_username=account.username,
        )
    )
