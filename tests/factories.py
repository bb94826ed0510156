"""make_* helpers with unique defaults and keyword overrides."""

from __future__ import annotations

import itertools

from sqlalchemy import select

from sibol.extensions import db
from sibol.identity.passwords import hash_password
from sibol.identity.tokens import issue_token
from sibol.models import ROLE_DEFAULT_MODULES, Account, AccountStatus, Area, Machine, Module, RoleId

DEFAULT_PASSWORD = "Sib0l-pass!"  # noqa: S105 - a test password
_counter = itertools.count(1)
_hash_cache: dict[str, str] = {}


def _hash(password: str) -> str:
    # argon2id is deliberately slow; tests reuse one hash per distinct password.
    if password not in _hash_cache:
        _hash_cache[password] = hash_password(password)
    return _hash_cache[password]


def make_account(
    *,
    role: RoleId = RoleId.STAFF,
    status: str = AccountStatus.ACTIVE,
    password: str | None = DEFAULT_PASSWORD,
    modules: list[int] | None = None,
    **fields,
) -> Account:
    n = next(_counter)
    fields.setdefault("username", f"user{n}")
    fields.setdefault("first_name", "Test")
    fields.setdefault("last_name", f"User{n}")
    fields.setdefault("email", f"user{n}@example.test")
    module_ids = ROLE_DEFAULT_MODULES[RoleId(role)] if modules is None else modules
    account = Account(
        role_id=int(role),
        status=str(status),
        password_hash=_hash(password) if password else None,
        modules=list(db.session.scalars(select(Module).where(Module.id.in_(module_ids)))),
        **fields,
    )
    db.session.add(account)
    db.session.commit()
    return account


def make_admin(**fields) -> Account:
    return make_account(role=RoleId.ADMIN, **fields)


def token_for(account: Account) -> str:
    token = issue_token(account)
    db.session.commit()
    return token


def make_machine(name: str | None = None, area: str = "Purok 1", status_id: int | None = None) -> Machine:
    area_row = db.session.scalar(select(Area).where(Area.name == area))
    machine = Machine(name=name or f"Machine {next(_counter)}", area_id=area_row.id, status_id=status_id)
    db.session.add(machine)
    db.session.commit()
    return machine
