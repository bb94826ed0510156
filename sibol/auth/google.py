"""Google sign-in with Flask-Dance; the provider's URLs come from configuration (the
README's Configuration table).

GET /api/auth/google sends the browser to the provider; its callback /api/auth/google/authorized
exchanges the code, reads the user-info endpoint and leads to one of four outcomes: an active
account is signed in (/dashboard with token and user in the hash), a pending one waits
(/pending-approval), an unknown e-mail registers (/signup in Google mode) and anything else is
refused (/login?auth=fail).
"""

from __future__ import annotations

import json

import requests
from flask import Flask, current_app, flash, redirect, session, url_for
from flask_babel import gettext as _
from flask_dance.consumer import OAuth2ConsumerBlueprint

from ..api.serializers import user_json
from ..i18n.languages import N_
from ..identity import totp
from ..identity.access import PUBLIC, Access, enrolment_page_url
from ..web.home import home_url
from ..web.links import client_base, redirect_target
from . import second_step, service

SESSION_KEY = "sibol_google"  # the identity Google vouched for, for a Google-mode sign-up
FAIL_URL = "/login?auth=fail"  # our page; fail_url() leads to the client's when configured
NOT_CONFIGURED = N_("Google sign-in is not configured on this server.")
FAILED = N_("Google sign-in failed. Please try again or sign in with your username.")
SIGNUP_MESSAGE = N_("Complete your registration. Your Google email address will be used for this account.")


def fail_url() -> str:
    return redirect_target("/login", {"auth": "fail"})


class GoogleBlueprint(OAuth2ConsumerBlueprint):
    """Flask-Dance's consumer with every failure sent to /login?auth=fail instead of a 500."""

    def login(self):
        if not self.client_id:
            flash(_(NOT_CONFIGURED), "error")
            return redirect(fail_url())
        return super().login()

    def authorized(self):
        from flask import request

        if "error" in request.args or "code" not in request.args:
            flash(_(FAILED), "error")
            return redirect(fail_url())
        try:
            return super().authorized()
        except Exception:  # the provider refused the code, timed out or answered nonsense
            current_app.logger.warning("Google sign-in failed", exc_info=True)
            flash(_(FAILED), "error")
            return redirect(fail_url())


def make_blueprint(app: Flask) -> GoogleBlueprint:
    """The /api/auth/google blueprint, built from the app's configuration."""
    config = app.config
    bp = GoogleBlueprint(
        "google",
        __name__,
        client_id=config.get("GOOGLE_OAUTH_CLIENT_ID"),
        client_secret=config.get("GOOGLE_OAUTH_CLIENT_SECRET"),
        scope=["openid", "email", "profile"],
        authorization_url=config["GOOGLE_OAUTH_AUTHORIZATION_URL"],
        token_url=config["GOOGLE_OAUTH_TOKEN_URL"],
        url_prefix="/api/auth",
        login_url="/google",
        authorized_url="/google/authorized",
        # Only reached when no outcome answered (read from the app's configuration, not a request).
        redirect_url=(config.get("SIBOL_CLIENT_URL") or "") + FAIL_URL,
    )
    bp.sibol_access = Access(PUBLIC)
    return bp


def on_authorized(blueprint, token):
    """Flask-Dance's oauth_authorized: the provider gave a token; answer with one outcome."""
    if blueprint.name != "google":
        return None
    userinfo_url = current_app.config["GOOGLE_OAUTH_USERINFO_URL"]
    if not token or "access_token" not in token:
        raise ValueError("no access token")
    response = requests.get(
        userinfo_url, headers={"Authorization": f"Bearer {token['access_token']}"}, timeout=10
    )
    response.raise_for_status()
    info = response.json()
    if not isinstance(info, dict):
        raise ValueError("user info is not an object")
    return outcome_response(service.google_sign_in(info), info)


def outcome_response(outcome: service.GoogleOutcome, info: dict):
    """The redirect for each outcome: our pages, or the spec's client when SIBOL_CLIENT_URL is set."""
    account = outcome.account
    if outcome.kind == "active" and account is not None:
        if totp.enrolled(account):  # Google vouched for the person; the authenticator's code next
            second_step.hold(account, via="google")
            return redirect(url_for("second_step.code"))
        return signed_in_redirect(account)
    if outcome.kind == "pending" and account is not None:
        query = {"email": account.email, "username": account.username, "sso": "google"}
        return redirect(redirect_target("/pending-approval", query))
    if outcome.kind == "signup":
        email = str(info.get("email", ""))
        session[SESSION_KEY] = {"email": email, "sub": str(info.get("sub") or info.get("id"))}
        query = {
            "email": email,
            "sso": "google",
            "firstName": service.strip_name(str(info.get("given_name") or ""))[:100],
            "lastName": service.strip_name(str(info.get("family_name") or ""))[:100],
            "message": _(SIGNUP_MESSAGE),
        }
        return redirect(redirect_target("/signup", query))
    flash(outcome.message or _(FAILED), "error")
    return redirect(fail_url())


def signed_in_redirect(account):
    """Google's sign-in is complete: the session starts and the browser goes on with its token."""
    raw = service.start_session(account, with_token=True)
    if totp.must_enrol(account):  # SIBOL_REQUIRE_2FA: the authenticator is set up first, here
        return redirect(enrolment_page_url())
    fragment = {"token": raw or "", "user": json.dumps(user_json(account))}
    # The spec's client opens /dashboard; our own pages open the role's home page.
    landing = "/dashboard" if client_base() else home_url(account)
    return redirect(redirect_target(landing, fragment=fragment))
