"""Where each role's day starts, and the greeting on those home pages.

A Household account lands on "My household", a City Admin on the city overview, an operator on
the machines; administrators and barangay staff on the dashboard. Sign-in, "/" and the brand
link in the top bar all lead there. The platform names no feature's page: each feature declares
its own, beside the view's access declaration (`@home_of(RoleId.OPERATOR,
module=ModuleId.MACHINES)`; without roles, the home of every other role; `@account_page` for the
signed-in person's own page). A role missing its page's module (an administrator may take
modules away) lands on the first module its top bar lists instead, and without any on its own page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app, url_for
from flask_babel import gettext as _
from flask_login import current_user

from ..i18n.localtime import now
from ..identity.access import sign_in_page
from ..models import MODULES, ModuleId, RoleId

View = TypeVar("View", bound=Callable[..., Any])
HOME_OF = "sibol_home_of"  # a view's {role (None: every other role): the module it needs}
ACCOUNT_PAGE = "sibol_account_page"
EXTENSION = "sibol_homes"


def home_of(*roles: RoleId, module: ModuleId) -> Callable[[View], View]:
    """Declare a page the home of these roles (no roles: of every role without a home of its own),
    for an account that holds `module`. Put it right under the route decorator."""

    def declare(view: View) -> View:
        homes = dict(getattr(view, HOME_OF, {}))
        homes.update({role: module for role in roles} if roles else {None: module})
        setattr(view, HOME_OF, homes)
        return view

    return declare


def account_page(view: View) -> View:
    """Declare the signed-in person's own page (the profile): the top bar's link to it, and the
    home of an account left without any module."""
    setattr(view, ACCOUNT_PAGE, True)
    return view


def _declared() -> tuple[dict[RoleId | None, tuple[str, ModuleId]], str | None]:
    """(role -> (endpoint, module), the account page's endpoint), read once per app."""
    found = current_app.extensions.get(EXTENSION)
    if found is None:
        homes: dict[RoleId | None, tuple[str, ModuleId]] = {}
        account: str | None = None
        for endpoint, view in current_app.view_functions.items():
            for role, module in getattr(view, HOME_OF, {}).items():
                homes[role] = (endpoint, module)
            if getattr(view, ACCOUNT_PAGE, False):
                account = endpoint
        found = current_app.extensions[EXTENSION] = (homes, account)
    return found


def account_page_url(**values: Any) -> str | None:
    """The signed-in person's own page, where the app has one (None otherwise)."""
    endpoint = _declared()[1]
    return url_for(endpoint, **values) if endpoint else None


def home_url(account=None) -> str:
    """The page a signed-in account starts on (the sign-in page when nobody is signed in)."""
    account = account if account is not None else current_user
    if account is None or not account.is_authenticated:
        return sign_in_page()
    homes, _account = _declared()
    for declared in (homes.get(account.role_id), homes.get(None)):
        if declared is not None and account.has_module(declared[1]):
            return url_for(declared[0])
    for module_id, (_key, _label, path) in MODULES.items():
        if module_id != ModuleId.ADMIN and account.has_module(module_id):
            return path
    return account_page_url() or sign_in_page()


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
