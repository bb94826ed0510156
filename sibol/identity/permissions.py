"""Who may do what inside a module: one table of action -> roles (docs/household.md).

A module (sibol/identity/access.py) decides whether an account may open a screen at all; an action decides
what it may change there. Routes declare an action with `module_required(module, action=...)`;
an unsafe request (POST, PUT, PATCH, DELETE) to a module route that names no action falls back to
the module's default write roles below. Both are enforced by access.enforce_access, before the
view runs, so a refused write changes nothing.
"""

from __future__ import annotations

from ..models import ModuleId, RoleId

ADMIN, STAFF, OPERATOR, HOUSEHOLD = RoleId.ADMIN, RoleId.STAFF, RoleId.OPERATOR, RoleId.HOUSEHOLD
CITY_ADMIN = RoleId.CITY_ADMIN  # Everything an Admin may do, in every barangay
STAFF_ROLES = frozenset({ADMIN, STAFF, CITY_ADMIN})
CREW_ROLES = frozenset({ADMIN, STAFF, OPERATOR, CITY_ADMIN})
ALL_ROLES = frozenset(RoleId)
RESIDENT_ROLES = frozenset({HOUSEHOLD})

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

ACTIONS: dict[str, frozenset[RoleId]] = {
    # Household module ---------------------------------------------------------------------
    "household.read": ALL_ROLES,  # schedules, rewards, point rule, reward images
    "household.roster.read": CREW_ROLES,  # every member's name, points and claims
    "household.schedule.write": STAFF_ROLES,
    "household.reward.write": STAFF_ROLES,
    "household.point_rule.write": STAFF_ROLES,
    "household.member.write": STAFF_ROLES,  # add households, link accounts to them
    "household.waste.credit": CREW_ROLES,
    "household.claim.create": STAFF_ROLES,  # a claim on behalf of any member
    "household.claim.redeem": CREW_ROLES,  # hand a reward over (scan or type the code)
    "household.claim.cancel": STAFF_ROLES,  # cancel any open claim
    "resident.read": RESIDENT_ROLES,  # My household
    "resident.claim": RESIDENT_ROLES,  # request or cancel a claim for itself
    "resident.settings": RESIDENT_ROLES,  # its own name on the public page, its reminders
    # Dashboard ----------------------------------------------------------------------------
    "dashboard.record": CREW_ROLES,  # Record a collection, record energy
    "reports.view": STAFF_ROLES,  # the monthly report (/reports/monthly, /api/reports/monthly)
    # Areas (puroks) of a barangay: its Admin adds, renames, retires them --------------------
    "areas.manage": frozenset({ADMIN, CITY_ADMIN}),
    "public.manage": frozenset({ADMIN, CITY_ADMIN}),  # the public page's address, its poster
    "reminders.view": STAFF_ROLES,  # what was sent, failed and what it cost
    "reminders.settings": frozenset({ADMIN, CITY_ADMIN}),  # reminder hour, daily SMS cap
    # Barangays -----------------------------------------------------------------
    "city.barangays": frozenset({CITY_ADMIN}),  # create, rename, deactivate, appoint admins
    "city.dashboard": frozenset({CITY_ADMIN}),  # totals per barangay
}

# Unsafe requests to a module's routes that declare no action.
MODULE_WRITE_ROLES: dict[int, frozenset[RoleId]] = {
    ModuleId.DASHBOARD: CREW_ROLES,
    ModuleId.MACHINES: CREW_ROLES,
    ModuleId.MAINTENANCE: CREW_ROLES,
    ModuleId.HOUSEHOLD: STAFF_ROLES,
}


def roles_for(action: str) -> frozenset[RoleId]:
    """The roles an action allows; an unknown name allows nobody (a typo cannot open a door)."""
    return ACTIONS.get(action, frozenset())


def role_may(role_id: int, action: str | None, module: int | None, method: str) -> bool:
    """Whether an account of this role may make this request, given the route's declaration."""
    if action is not None:
        return role_id in roles_for(action)
    if module is not None and method.upper() in UNSAFE_METHODS and module in MODULE_WRITE_ROLES:
        return role_id in MODULE_WRITE_ROLES[module]
    return True


def can(account, action: str) -> bool:
    """For templates and services: may this signed-in account perform the action?"""
    return bool(getattr(account, "is_authenticated", False)) and account.role_id in roles_for(action)
