"""Where a page sign-in goes once it is complete."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import redirect, url_for

from ..identity import totp
from ..identity.access import enrolment_page_url
from ..models import Account
from ..web.home import home_url


def safe_next(target: str | None) -> str:
    """Only same-site paths: an open redirect would let a phishing link borrow our sign-in."""
    if not target:
        return home_url()  # the role's own home page
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return home_url()
    return target


def after_password(account: Account, next_url: str | None):
    """The redirect after a page sign-in by password (with its code when it has an authenticator)."""
    if totp.must_enrol(account):  # SIBOL_REQUIRE_2FA: the authenticator is set up before anything else
        return redirect(enrolment_page_url())
    if account.password_is_temporary:  # an administrator's: straight to choosing one's own
        return redirect(url_for("auth.choose_password", next=next_url))
    return redirect(safe_next(next_url))
