"""Where links and redirects lead: the separately hosted client when SIBOL_CLIENT_URL is set.

A deployment whose users work in the spec's own single-page client sets
SIBOL_CLIENT_URL to its address. E-mail links and the Google sign-in then lead to the client's
routes (/login, /signup, /email-verification, /pending-approval, /dashboard); steps the client
does not have (set password) stay on our pages, under SIBOL_BASE_URL. Unset, every link and
redirect is what it always was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from flask import current_app

Query = Mapping[str, Any] | None

# The routes the spec's client has (spec section 2); anything else stays on our pages.
CLIENT_ROUTES = frozenset({"/login", "/signup", "/email-verification", "/pending-approval", "/dashboard"})


def client_base() -> str | None:
    """The client's address without a trailing slash, or None when it is not configured."""
    return current_app.config.get("SIBOL_CLIENT_URL") or None


def _with(path: str, query: Query, fragment: Query) -> str:
    target = path
    if query:
        target += "?" + urlencode(query)
    if fragment:
        target += "#" + urlencode(fragment)
    return target


def redirect_target(path: str, query: Query = None, fragment: Query = None) -> str:
    """For a redirect: the client's route when configured, else our own page (a relative path)."""
    base = client_base() if path in CLIENT_ROUTES else None
    return (base or "") + _with(path, query, fragment)


def email_link(path: str, query: Query = None) -> str:
    """For an e-mail: an absolute address on the client when configured, else on our pages."""
    base = client_base() if path in CLIENT_ROUTES else None
    return (base or current_app.config["SIBOL_BASE_URL"]) + _with(path, query, None)


def sign_in_url(**query: Any) -> str:
    """Where a page that ends on a sign-in leads (set password, reset done, verification): the
    client's /login when configured, else ours (a Jinja global)."""
    return redirect_target("/login", query or None)


def sign_in_base() -> str:
    """The address whose /login e-mails point at (the client's when configured)."""
    return client_base() or current_app.config["SIBOL_BASE_URL"]
