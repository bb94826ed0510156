"""Reference data, accounts, access tokens and machines: the tables every feature shares."""

from __future__ import annotations

import enum
from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    Column,
    ColumnElement,
    DateTime,
    ForeignKey,
    Integer,
    Label,
    String,
    Table,
    UniqueConstraint,
    event,
    func,
    select,
    true,
)
from sqlalchemy.orm import Mapped, declared_attr, mapped_column, relationship

from ..extensions import Model, db


def utcnow() -> datetime:
    """Naive UTC now: MySQL DATETIME keeps no zone, so every stored time is naive UTC."""
    return datetime.now(UTC).replace(tzinfo=None)


class RoleId(enum.IntEnum):
    ADMIN = 1
    STAFF = 2
    OPERATOR = 3
    HOUSEHOLD = 4
    CITY_ADMIN = 5  # Manages barangays, sees every barangay


class ModuleId(enum.IntEnum):
    DASHBOARD = 1
    MACHINES = 2
    MAINTENANCE = 3
    HOUSEHOLD = 4
    CHAT_SUPPORT = 5
    ADMIN = 6


ROLE_NAMES = {
    RoleId.ADMIN: "Admin",
    RoleId.STAFF: "Barangay Staff",
    RoleId.OPERATOR: "Operator",
    RoleId.HOUSEHOLD: "Household",
    RoleId.CITY_ADMIN: "City Admin",
}

# id -> (key, name, path); spec section 2 (navigation) and section 3 (module ids).
MODULES = {
    ModuleId.DASHBOARD: ("dashboard", "Dashboard", "/dashboard"),
    ModuleId.MACHINES: ("machines", "SIBOL Machines", "/sibol-machines"),
    ModuleId.MAINTENANCE: ("maintenance", "Maintenance", "/maintenance"),
    ModuleId.HOUSEHOLD: ("household", "Household", "/household"),
    ModuleId.CHAT_SUPPORT: ("chat_support", "Chat Support", "/chat-support"),
    ModuleId.ADMIN: ("admin", "Admin", "/admin"),
}

# A new account gets its role's modules (docs/roles.md).
ROLE_DEFAULT_MODULES = {
    RoleId.ADMIN: [1, 2, 3, 4, 5, 6],
    RoleId.STAFF: [1, 2, 3, 4, 5],
    RoleId.OPERATOR: [1, 2, 3, 4, 5],  # Household: credit waste, redeem claims
    RoleId.HOUSEHOLD: [1, 4, 5],
    RoleId.CITY_ADMIN: [1, 2, 3, 4, 5, 6],
}


class AccountStatus(enum.StrEnum):
    EMAIL_PENDING = "email_pending"
    PENDING = "pending"
    ACTIVE = "active"
    REJECTED = "rejected"


class Role(Model):
    __tablename__ = "roles"
    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(50), unique=True)


class Module(Model):
    __tablename__ = "modules"
    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    key: Mapped[str] = mapped_column(String(50), unique=True)
    name: Mapped[str] = mapped_column(String(50))
    path: Mapped[str] = mapped_column(String(100))


class Barangay(Model):
    """A tenant: its data and accounts are seen only by its own people and the City Admin."""

    __tablename__ = "barangays"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    # A deactivated barangay's accounts cannot sign in; its data stays.
    is_active: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    created_at: Mapped[datetime | None] = mapped_column(DateTime, default=utcnow)
    # The public page's address, /b/<slug> (sibol/public/slugs.py makes and checks it).
    slug: Mapped[str | None] = mapped_column(String(80), unique=True, index=True)
    # Reminders go out the evening before a collection from this hour (local time), and at most
    # this many SMS a day (the barangay's SMS budget).
    reminder_hour: Mapped[int] = mapped_column(Integer, default=18, server_default="18")
    sms_daily_cap: Mapped[int] = mapped_column(Integer, default=200, server_default="200")
    # When the truck comes on a collection day ("6-8 AM"): on the public page and in reminders.
    collection_window: Mapped[str] = mapped_column(String(20), default="", server_default="")


class TenantOwned:
    """Mixin of every table whose rows belong to one barangay (sibol/identity/tenancy/ scopes them).

    The column is stamped by the session on insert (the request's barangay, else the first
    barangay when nothing is scoped: CLI, seeds, tests) and every ORM query of a scoped request
    is limited to it, so no view filters by barangay itself."""

    @declared_attr
    def barangay_id(cls) -> Mapped[int]:
        return mapped_column(ForeignKey("barangays.id"), index=True)


class Area(TenantOwned, Model):
    """A part of a barangay (a purok) where machines stand. Retired: kept with its history, but
    no new machine or schedule may use it (sibol/machines/areas.py)."""

    __tablename__ = "areas"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    retired_at: Mapped[datetime | None] = mapped_column(DateTime)

    __table_args__ = (UniqueConstraint("barangay_id", "name", name="uq_areas_barangay_id_name"),)


class MachineStatus(Model):
    __tablename__ = "machine_statuses"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(50), unique=True)


account_modules = Table(
    "account_modules",
    db.metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("module_id", Integer, ForeignKey("modules.id"), primary_key=True),
)


def module_ids_column(account_id: ColumnElement) -> Label:
    """The module ids of the account `account_id` as one text column ("1,2,6", in no set order),
    for reading an account's access in the same statement as the account."""
    return (
        select(func.group_concat(account_modules.c.module_id))
        .where(account_modules.c.account_id == account_id)
        .scalar_subquery()
        .label("module_ids")
    )


def parse_module_ids(value: str | bytes | None) -> set[int]:
    """module_ids_column's value as a set (MariaDB's GROUP_CONCAT of integers answers bytes)."""
    if isinstance(value, bytes):
        value = value.decode()
    return {int(part) for part in (value or "").split(",") if part}


# Set on an Account by the bearer lookup; dropped whenever its modules change (below).
BARANGAY_ACTIVE_KEY = "_sibol_barangay_active"
MODULE_IDS_KEY = "_sibol_module_ids"


class Account(Model):
    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    first_name: Mapped[str] = mapped_column(String(100), default="")
    last_name: Mapped[str] = mapped_column(String(100), default="")
    email: Mapped[str | None] = mapped_column(String(254), unique=True)
    barangay_id: Mapped[int | None] = mapped_column(ForeignKey("barangays.id"), index=True)
    contact_number: Mapped[str | None] = mapped_column(String(40))  # the profile's
    language: Mapped[str | None] = mapped_column(String(8))  # "en" or "fil"; None: the browser's
    role_id: Mapped[int] = mapped_column(ForeignKey("roles.id"), index=True)
    status: Mapped[str] = mapped_column(String(20), default=AccountStatus.EMAIL_PENDING, index=True)
    is_enabled: Mapped[bool] = mapped_column(Boolean, default=True)  # the spec's IsActive
    password_hash: Mapped[str | None] = mapped_column(String(255))
    # Set while the password is a temporary one an administrator gave (one that does not meet the
    # password rule): it signs in until then, or until the account sets its own (then None).
    password_expires_at: Mapped[datetime | None] = mapped_column(DateTime)
    # Bumped to end every page session of the account (disable, password reset).
    session_epoch: Mapped[int] = mapped_column(Integer, default=0)
    is_sso: Mapped[bool] = mapped_column(Boolean, default=False)
    google_subject: Mapped[str | None] = mapped_column(String(255), unique=True)
    rejection_reason: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)

    role: Mapped[Role] = relationship(lazy="joined")
    barangay: Mapped[Barangay | None] = relationship(lazy="joined")
    modules: Mapped[list[Module]] = relationship(
        secondary=account_modules, lazy="selectin", order_by=Module.id
    )

    # Flask-Login protocol ------------------------------------------------------------
    @property
    def is_active(self) -> bool:
        """Only approved, enabled accounts of an active barangay may use the console."""
        return self.status == AccountStatus.ACTIVE and bool(self.is_enabled) and self._barangay_active()

    def _barangay_active(self) -> bool:
        # A bearer request's account comes from one row with its barangay's flag and its module
        # ids (sibol/identity/tokens.py): those stand in until the relationship is loaded.
        if "barangay" not in self.__dict__ and BARANGAY_ACTIVE_KEY in self.__dict__:
            return bool(self.__dict__[BARANGAY_ACTIVE_KEY])
        return self.barangay is None or self.barangay.is_active is not False

    @property
    def is_city_admin(self) -> bool:
        return self.role_id == RoleId.CITY_ADMIN

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def is_anonymous(self) -> bool:
        return False

    def get_id(self) -> str:
        # The epoch makes every older session cookie of this account stop loading.
        return f"{self.id}.{self.session_epoch or 0}"

    # Access ---------------------------------------------------------------------------
    @property
    def module_ids(self) -> set[int]:
        known = self.__dict__.get(MODULE_IDS_KEY)
        if known is not None and "modules" not in self.__dict__:
            return known
        return {m.id for m in self.modules}

    def has_module(self, module_id: int) -> bool:
        return int(module_id) in self.module_ids

    @property
    def is_admin(self) -> bool:
        return self.role_id in (RoleId.ADMIN, RoleId.CITY_ADMIN) or self.has_module(ModuleId.ADMIN)

    @property
    def password_is_temporary(self) -> bool:
        return self.password_expires_at is not None

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip() or self.username


@event.listens_for(Account.modules, "append")
@event.listens_for(Account.modules, "remove")
@event.listens_for(Account.modules, "bulk_replace")
def _forget_known_modules(target, *_args, **_kw) -> None:
    target.__dict__.pop(MODULE_IDS_KEY, None)


class ApiToken(Model):
    """A bearer token; only its SHA-256 is stored."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime)
    # The page session the same sign-in opened: signing out with the token ends it too.
    page_session_id: Mapped[int | None] = mapped_column(
        ForeignKey("page_sessions.id", ondelete="SET NULL"), index=True
    )

    account: Mapped[Account] = relationship()


class Machine(TenantOwned, Model):
    __tablename__ = "machines"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), index=True)
    area_id: Mapped[int] = mapped_column(ForeignKey("areas.id"), index=True)
    status_id: Mapped[int | None] = mapped_column(ForeignKey("machine_statuses.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)

    area: Mapped[Area] = relationship(lazy="joined")
    status: Mapped[MachineStatus | None] = relationship(lazy="joined")
