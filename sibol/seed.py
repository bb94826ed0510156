"""Idempotent seeding: reference data, the first admin, and the spec's sample rows."""

from __future__ import annotations

import importlib

from flask import current_app
from sqlalchemy import column, func, insert, select, table

from .extensions import db
from .identity.passwords import generate_password, hash_password
from .models import (
    MODULES,
    ROLE_DEFAULT_MODULES,
    ROLE_NAMES,
    Account,
    AccountStatus,
    Area,
    Barangay,
    Machine,
    MachineStatus,
    Module,
    ModuleId,
    Role,
    RoleId,
    account_modules,
)

# Barangays are tenants. Seeding creates only the first one (SIBOL_DEFAULT_BARANGAY_NAME),
# so a fresh installation has one barangay and looks as before; a City Admin adds the others.
AREAS = ("Purok 1", "Purok 2", "Purok 3", "Purok 4", "Purok 5")
MACHINE_STATUSES = ("Active", "Inactive", "Under Maintenance", "Offline")
SAMPLE_MACHINES = (
    ("SIBOL Machine 1", "Purok 1", "Active"),
    ("SIBOL Machine 2", "Purok 2", "Active"),
    ("SIBOL Machine 3", "Purok 3", "Under Maintenance"),
    ("SIBOL Machine 4", "Purok 4", None),
)
# Features that own sample rows provide sibol/<feature>/seed.py with sample_data().
SAMPLE_FEATURES = ("auth", "admin", "machines", "dashboard", "household", "maintenance", "telemetry")


def _ensure_named(model, names) -> None:
    existing = set(db.session.scalars(select(model.name)))
    for name in names:
        if name not in existing:
            db.session.add(model(name=name))


def reference_data() -> None:
    """Roles 1-5, modules 1-6, the first barangay, its areas and the machine statuses."""
    for role_id, name in ROLE_NAMES.items():
        role = db.session.get(Role, int(role_id))
        if role is None:
            db.session.add(Role(id=int(role_id), name=name))
    for module_id, (key, name, path) in MODULES.items():
        module = db.session.get(Module, int(module_id))
        if module is None:
            db.session.add(Module(id=int(module_id), key=key, name=name, path=path))
        else:
            module.key, module.name, module.path = key, name, path
    # Columns, not entities: this also runs on older schemas (tests migrate step by step).
    first_id = db.session.scalar(select(func.min(Barangay.id)))
    if first_id is None:
        name = current_app.config.get("SIBOL_DEFAULT_BARANGAY_NAME") or "Barangay Fortune"
        db.session.execute(insert(table("barangays", column("name"))).values(name=name))
        first_id = db.session.scalar(select(func.min(Barangay.id)))
    existing = set(db.session.scalars(select(Area.name).where(Area.barangay_id == first_id)))
    missing = [{"name": name, "barangay_id": first_id} for name in AREAS if name not in existing]
    if missing:
        db.session.execute(insert(table("areas", column("name"), column("barangay_id"))), missing)
    _ensure_named(MachineStatus, MACHINE_STATUSES)
    db.session.commit()


def sample_data() -> None:
    """The spec's sample rows, each feature's own, once."""
    if db.session.scalar(select(func.count(Machine.id))) == 0:
        first = db.session.scalar(select(func.min(Barangay.id)))
        areas = {a.name: a.id for a in db.session.scalars(select(Area).where(Area.barangay_id == first))}
        statuses: dict[str | None, int] = {s.name: s.id for s in db.session.scalars(select(MachineStatus))}
        for name, area, status in SAMPLE_MACHINES:
            db.session.add(Machine(name=name, area_id=areas[area], status_id=statuses.get(status)))
        db.session.commit()
    for feature in SAMPLE_FEATURES:
        try:
            module = importlib.import_module(f"sibol.{feature}.seed")
        except ModuleNotFoundError as err:
            if err.name != f"sibol.{feature}.seed":
                raise
            continue
        module.sample_data()


def ensure_admin(username: str, email: str, password: str | None = None) -> tuple[Account | None, str | None]:
    """Create an administrator unless an enabled, approved account holds the Admin role and the
    Admin module. A disabled or module-less admin does not count. When the configured username
    or e-mail is taken (by such an account), the next free username is used and the e-mail left
    empty, so the command always helps.

    Returns (account, generated_password); the password is None when one was given or when
    nothing was created.
    """
    existing = db.session.scalar(
        select(Account.id)
        .join(account_modules, account_modules.c.account_id == Account.id)
        .where(
            Account.role_id == RoleId.ADMIN,
            Account.status == AccountStatus.ACTIVE,
            Account.is_enabled.is_(True),
            account_modules.c.module_id == int(ModuleId.ADMIN),
        )
        .limit(1)
    )
    if existing is not None:
        return None, None
    base, n = username, 1
    while db.session.scalar(select(Account.id).where(func.lower(Account.username) == username.lower())):
        n += 1
        username = f"{base}{n}"
    email = (email or "").strip().lower()
    if email and db.session.scalar(select(Account.id).where(func.lower(Account.email) == email)):
        email = ""
    account, generated = _administrator(RoleId.ADMIN, "System", username, email, password)
    current_app.logger.info("Created the first administrator %r", username)
    return account, generated


def _administrator(
    role: RoleId, first_name: str, username: str, email: str, password: str | None
) -> tuple[Account, str | None]:
    """Stores an active administrator of `role` with the role's default modules ("<first_name>
    Administrator"). Returns (account, the generated password, or None when one was given)."""
    generated = None
    if not password:
        password = generated = generate_password(16)
    account = Account(
        username=username,
        first_name=first_name,
        last_name="Administrator",
        email=email or None,
        role_id=int(role),
        status=AccountStatus.ACTIVE,
        is_enabled=True,
        password_hash=hash_password(password),
        modules=list(db.session.scalars(select(Module).where(Module.id.in_(ROLE_DEFAULT_MODULES[role])))),
    )
    db.session.add(account)
    db.session.commit()
    return account, generated


def create_city_admin(username: str, email: str, password: str | None = None) -> tuple[Account, str | None]:
    """A City Admin: every module, no barangay. Returns (account, generated password).
    Raises ValueError when the username or e-mail is taken."""
    username, email = username.strip(), (email or "").strip().lower()
    if db.session.scalar(select(Account.id).where(func.lower(Account.username) == username.lower())):
        raise ValueError(f"The username {username} is taken.")
    if email and db.session.scalar(select(Account.id).where(func.lower(Account.email) == email)):
        raise ValueError(f"The e-mail {email} is taken.")
    return _administrator(RoleId.CITY_ADMIN, "City", username, email, password)
