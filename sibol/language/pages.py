"""POST /language: the switcher in the top bar and on the sign-in page, without JavaScript.

Signed in, the choice is stored on the account; otherwise in a long-lived cookie, which the
locale selector reads before Accept-Language (sibol/i18n/languages.py). Either way it returns to the page
it came from (a same-site path only: no open redirect)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, g, redirect, request
from flask_login import current_user

from ..errors import ServiceError
from ..i18n.languages import LANGUAGE_COOKIE, LANGUAGE_COOKIE_AGE
from ..identity.access import public
from ..web.home import home_url
from . import service

bp = Blueprint("language", __name__)


def safe_return(target: str | None) -> str:
    """A same-site path to go back to; anything else (another host, a scheme, //) goes home."""
    fallback = home_url()
    if not target or "\\" in target or any(ord(c) < 32 for c in target):
        return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return fallback
    return target


@bp.post("/language")
@public
def choose():
    back = safe_return(request.form.get("next"))
    try:
        code = service.check_language(request.form.get("language"))
    except ServiceError as err:
        flash(err.message, "error")
        return redirect(back)
    if current_user.is_authenticated:
        service.set_account_language(current_user, code)
    g.sibol_language = code  # this response's own texts
    response = redirect(back)
    response.set_cookie(
        LANGUAGE_COOKIE,
        code,
        max_age=LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        secure=request.is_secure,
        httponly=True,
    )
    return response
