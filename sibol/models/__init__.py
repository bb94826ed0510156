"""All models; each feature keeps its tables in its own module here."""

from .admin import *  # noqa: F403
from .auth import *  # noqa: F403
from .commands import *  # noqa: F403
from .core import *  # noqa: F403
from .core import (
    MODULES,
    ROLE_DEFAULT_MODULES,
    ROLE_NAMES,
    Account,
    AccountStatus,
    ApiToken,
    Area,
    Barangay,
    Machine,
    MachineStatus,
    Module,
    ModuleId,
    Role,
    RoleId,
    account_modules,
    utcnow,
)
from .household import *  # noqa: F403
from .idempotency import *  # noqa: F403
from .machines import *  # noqa: F403
from .mail import *  # noqa: F403
from .maintenance import *  # noqa: F403
from .mqtt import *  # noqa: F403
from .public import *  # noqa: F403
from .reminders import *  # noqa: F403
from .residents import *  # noqa: F403
from .telemetry import *  # noqa: F403

__all__ = [
    "MODULES",
    "ROLE_DEFAULT_MODULES",
    "ROLE_NAMES",
    "Account",
    "AccountStatus",
    "ApiToken",
    "Area",
    "Barangay",
    "Machine",
    "MachineStatus",
    "Module",
    "ModuleId",
    "Role",
    "RoleId",
    "account_modules",
    "utcnow",
]
