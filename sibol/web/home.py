"""Where each role's day starts, and the greeting on those home pages.

A Household account lands on "My household", a City Admin on the city overview, an operator on
the machines; administrators and barangay staff on the dashboard. Sign-in, "/" and the brand
link in the top bar all lead there. Endpoints are named, not imported: the platform imports no
feature. A role missing its page's module (an administrator may take modules away) lands on the
first module its top bar lists instead.
"""

from __future__ import annotations

from flask import current_app, url_for
from flask_babel import gettext as _
from flask_login import current_user

from ..i18n.localtime import now
from ..models import MODULES, ModuleId, RoleId

# role -> (endpoint, the module that page needs)
HOMES = {
    RoleId.HOUSEHOLD: ("residents.my_household", ModuleId.HOUSEHOLD),
    RoleId.CITY_ADMIN: ("city.dashboard", ModuleId.ADMIN),
    RoleId.OPERATOR: ("machines.index", ModuleId.MACHINES),
}
DEFAULT_HOME = ("dashboard.index", ModuleId.DASHBOARD)


def home_url(account=None) -> str:
    """The page a signed-in account starts on (the sign-in page when nobody is signed in)."""
    account = account if account is not None else current_user
    if account is None or not account.is_authenticated:
        return url_for("auth.login")
    endpoint, module = HOMES.get(account.role_id, DEFAULT_HOME)
    if endpoint in current_app.view_functions and account.has_module(module):
        return url_for(endpoint)
    if account.has_module(ModuleId.DASHBOARD):
        return url_for(DEFAULT_HOME[0])
    for module_id, (_key, _label, path) in MODULES.items():
        if module_id != ModuleId.ADMIN and account.has_module(module_id):
            return path
    return url_for("profile.index") if "profile.index" in current_app.view_functions else "/login"


def greeting(account=None) -> str:
    """ "Good morning, Ana" by the barangay's clock: morning until noon, afternoon until six."""
    account = account if account is not None else current_user
    first = (account.first_name or "").strip()
    name = first if first and first != "System" else account.full_name
    hour = now().hour
    if 4 <= hour < 12:
        return _("Good morning, %(name)s", name=name)
    if 12 <= hour < 18:
        return _("Good afternoon, %(name)s", name=name)
    return _("Good evening, %(name)s", name=name)
