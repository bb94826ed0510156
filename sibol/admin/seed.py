"""Sample accounts for a local run: a few members of each role and two sign-ups awaiting approval."""

from __future__ import annotations

from sqlalchemy import select

from ..extensions import db
from ..models import ROLE_DEFAULT_MODULES, Account, AccountStatus, Barangay, Module, RoleId

# (username, first, last, role, status, is_sso); no passwords: approving mails a set-password link.
SAMPLE_ACCOUNTS = (
    ("juan.delacruz", "Juan", "Dela Cruz", RoleId.STAFF, AccountStatus.ACTIVE, False),
    ("maria.santos", "Maria", "Santos", RoleId.OPERATOR, AccountStatus.ACTIVE, False),
    ("pedro.reyes", "Pedro", "Reyes", RoleId.HOUSEHOLD, AccountStatus.ACTIVE, False),
    ("ana.garcia", "Ana", "Garcia", RoleId.HOUSEHOLD, AccountStatus.PENDING, False),
    ("jose.ramos", "Jose", "Ramos", RoleId.OPERATOR, AccountStatus.PENDING, True),
)


def sample_data() -> None:
    """Adds each sample account once (by username); never changes one that exists."""
    existing = set(db.session.scalars(select(Account.username)))
    barangay = db.session.scalar(select(Barangay).order_by(Barangay.id))
    for username, first, last, role, status, is_sso in SAMPLE_ACCOUNTS:
        if username in existing:
            continue
        modules = list(db.session.scalars(select(Module).where(Module.id.in_(ROLE_DEFAULT_MODULES[role]))))
        db.session.add(
            Account(
                username=username,
                first_name=first,
                last_name=last,
                email=f"{username}@sample.sibol.invalid",
                role_id=int(role),
                status=str(status),
                is_enabled=True,
                is_sso=is_sso,
                barangay_id=barangay.id if barangay else None,
                modules=modules,
            )
        )
    db.session.commit()
