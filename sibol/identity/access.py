"""One access mechanism for every route: each view declares who may call it.

A view is wrapped by exactly one of:
  @public                      anyone, signed in or not
  @signed_in                   any active account, whatever its modules
  @module_required(ModuleId.X) an active account holding module X (admin routes: ModuleId.ADMIN)
  @module_required(ModuleId.X, action="x.y")  ... and whose role the action allows
                               (sibol/identity/permissions.py: one table of action -> roles; unsafe
                               methods on a module route without an action use the module's
                               default write roles)

The app-wide before_request hook enforces the declaration, so a route that declares nothing is
refused with 403 (and logged), and the route-walk test fails for it.

An account that SIBOL_REQUIRE_2FA asks for a second factor and that has none yet may call only
the routes also marked @enrolment_step (setting up its authenticator); every other route that
is not public answers 403 (a page: a redirect to the set-up page) until it is done.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlencode

from flask import Flask, current_app, flash, redirect, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user

from ..errors import json_error, wants_json
from ..extensions import login_manager
from ..i18n.labels import shown
from ..models import MODULES, ModuleId
from . import totp
from .permissions import role_may

PUBLIC = "public"
SIGNED_IN = "signed_in"


@dataclass(frozen=True)
class Access:
    kind: str  # PUBLIC, SIGNED_IN or "module"
    module: int | None = None
    action: str | None = None


def _declare(access: Access) -> Callable:
    def decorate(view: Callable) -> Callable:
        view.sibol_access = access  # type: ignore[attr-defined]
        return view

    return decorate


def public(view: Callable) -> Callable:
    return _declare(Access(PUBLIC))(view)


def signed_in(view: Callable) -> Callable:
    return _declare(Access(SIGNED_IN))(view)


def module_required(module: int, action: str | None = None) -> Callable:
    return _declare(Access("module", int(module), action))


def enrolment_step(view: Callable) -> Callable:
    """A route an account that must still set up its second factor may call (besides public ones)."""
    view.sibol_enrolment_step = True  # type: ignore[attr-defined]
    return view


def enrolment_page(view: Callable) -> Callable:
    """Declare the page where an account sets up its second factor: where a page request of an
    account that must still enrol is sent. The feature that owns it declares it; the platform
    names no feature's endpoint."""
    view.sibol_enrolment_page = True  # type: ignore[attr-defined]
    return enrolment_step(view)


def enrolment_page_url() -> str:
    """The declared enrolment page's address (found once per app among its views)."""
    endpoint = current_app.extensions.get("sibol_enrolment_page")
    if endpoint is None:
        endpoint = next(
            name
            for name, view in current_app.view_functions.items()
            if getattr(_unwrapped(view), "sibol_enrolment_page", False)
        )
        current_app.extensions["sibol_enrolment_page"] = endpoint
    return url_for(endpoint)


def _unwrapped(view: Callable) -> Callable:
    while not hasattr(view, "sibol_enrolment_step") and hasattr(view, "__wrapped__"):
        view = view.__wrapped__
    return view


def _is_enrolment_step(endpoint: str) -> bool:
    view = current_app.view_functions.get(endpoint)
    return view is not None and bool(getattr(_unwrapped(view), "sibol_enrolment_step", False))


def _refuse_until_enrolled():
    message = _(
        "Your account must use two-step sign-in. Set up your authenticator app first; "
        "until then nothing else is open to this sign-in."
    )
    if wants_json():
        return json_error(403, message, code="totp_enrollment_required", totpEnrollmentRequired=True)
    return redirect(enrolment_page_url())


def allows(access: Access, account, method: str) -> bool:
    """Whether an active account may call a route with this declaration (module and role)."""
    if access.kind == PUBLIC:
        return True
    if access.kind == SIGNED_IN:
        return access.action is None or role_may(account.role_id, access.action, None, method)
    if not account.has_module(access.module):
        return False
    return role_may(account.role_id, access.action, access.module, method)


def access_of(endpoint: str | None, app: Flask | None = None) -> Access | None:
    app = app or current_app
    if endpoint is None:
        return None
    if endpoint == "static" or endpoint.endswith(".static"):
        return Access(PUBLIC)
    view = app.view_functions.get(endpoint)
    # Flask-Dance and other blueprints may wrap views; look through functools.wraps.
    while view is not None and not hasattr(view, "sibol_access") and hasattr(view, "__wrapped__"):
        view = view.__wrapped__
    if view is None:
        return None
    declared = getattr(view, "sibol_access", None)
    if declared is None:
        # A blueprint whose views are not ours (e.g. Flask-Dance's) declares for all of them:
        # `blueprint.sibol_access = Access(PUBLIC)`; nested names are dotted.
        parts = endpoint.split(".")[:-1]
        while parts and declared is None:
            blueprint = app.blueprints.get(".".join(parts))
            declared = getattr(blueprint, "sibol_access", None)
            parts.pop()
    return declared


def sign_in_page(**values) -> str:
    """The sign-in page: Flask-Login's login_view, which the app factory names. The platform
    names no feature's page itself."""
    return url_for(str(login_manager.login_view), **values)


def _refuse_anonymous(message: str | None = None):
    if wants_json():
        return json_error(401, message or _("Sign in to continue."), code="unauthorized")
    if message:
        flash(message, "error")
    target = request.full_path if request.query_string else request.path
    return redirect(sign_in_page() + "?" + urlencode({"next": target}))


def enforce_access():
    """before_request: apply the current endpoint's declaration."""
    if request.endpoint is None:  # routing failed: 404/405 handlers answer
        return None
    if request.method == "OPTIONS":
        return None  # CORS preflight carries no credentials
    access = access_of(request.endpoint)
    if access is None:
        current_app.logger.error("Route %s declares no access rule; refusing it", request.endpoint)
        return json_error(403, _("This route is not available."), code="forbidden")
    if access.kind == PUBLIC:
        return None
    if not current_user.is_authenticated:
        message = session.pop("sibol_signed_out_reason", None)
        return _refuse_anonymous(message)
    if not current_user.is_active:  # pragma: no cover - loaders never return inactive accounts
        return _refuse_anonymous(_("Your account is not active."))
    if totp.must_enrol(current_user) and not _is_enrolment_step(request.endpoint):
        return _refuse_until_enrolled()
    if access.kind == SIGNED_IN:
        return None
    if not current_user.has_module(access.module):
        name = MODULES[ModuleId(cast(int, access.module))][1]  # kind "module" always names one

        message = _("Your account does not have access to %(name)s.", name=shown(name))
        if wants_json():
            return json_error(403, message, code="forbidden", module=access.module)
        from flask import render_template

        return render_template("errors/error.html", status=403, message=message), 403
    if not role_may(current_user.role_id, access.action, access.module, request.method):
        message = _("Your role does not allow this.")
        if wants_json():
            return json_error(403, message, code="forbidden", action=access.action)
        from flask import render_template

        return render_template("errors/error.html", status=403, message=message), 403
    return None
