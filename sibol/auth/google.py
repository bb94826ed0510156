"""Google sign-in with Flask-Dance; the provider's URLs come from configuration (DESIGN.md 4).

GET /api/auth/google sends the browser to the provider; its callback /api/auth/google/authorized
exchanges the code, reads the user-info endpoint and leads to one of four outcomes: an active
account is signed in (/dashboard with token and user in the hash), a pending one waits
(/pending-approval), an unknown e-mail registers (/signup in Google mode) and anything else is
refused (/login?auth=fail).
"""

from __future__ import annotations

import json
from typing import cast
from urllib.parse import urlencode

import requests
from flask import Flask, current_app, flash, redirect, session
from flask_dance.consumer import OAuth2ConsumerBlueprint, oauth_authorized

from ..access import PUBLIC, Access
from ..models import Account
from ..serializers import user_json
from . import service

SESSION_KEY = "sibol_google"  # the identity Google vouched for, for a Google-mode sign-up
FAIL_URL = "/login?auth=fail"
NOT_CONFIGURED = "Google sign-in is not configured on this server."
FAILED = "Google sign-in failed. Please try again or sign in with your username."
SIGNUP_MESSAGE = "Complete your registration. Your Google email address will be used for this account."


class GoogleBlueprint(OAuth2ConsumerBlueprint):
    """Flask-Dance's consumer with every failure sent to /login?auth=fail instead of a 500."""

    def login(self):
        if not self.client_id:
            flash(NOT_CONFIGURED, "error")
            return redirect(FAIL_URL)
        return super().login()

    def authorized(self):
        from flask import request

        if "error" in request.args or "code" not in request.args:
            flash(FAILED, "error")
            return redirect(FAIL_URL)
        try:
            return super().authorized()
        except Exception:  # the provider refused the code, timed out or answered nonsense
            current_app.logger.warning("Google sign-in failed", exc_info=True)
            flash(FAILED, "error")
            return redirect(FAIL_URL)


def init_app(app: Flask) -> None:
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
        redirect_url=FAIL_URL,  # only reached when no outcome answered
    )
    bp.sibol_access = Access(PUBLIC)
    app.register_blueprint(bp)


@oauth_authorized.connect
def _on_authorized(blueprint, token):
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
    if outcome.kind == "active":
        account = cast(Account, outcome.account)  # "active" and "pending" outcomes carry the account
        raw = service.start_session(account, with_token=True)
        fragment = urlencode({"token": raw, "user": json.dumps(user_json(account))})
        return redirect(f"/dashboard#{fragment}")
    if outcome.kind == "pending":
        account = cast(Account, outcome.account)
        return redirect(
            "/pending-approval?"
            + urlencode({"email": account.email, "username": account.username, "sso": "google"})
        )
    if outcome.kind == "signup":
        email = str(info.get("email", ""))
        session[SESSION_KEY] = {"email": email, "sub": str(info.get("sub") or info.get("id"))}
        return redirect(
            "/signup?"
            + urlencode(
                {
                    "email": email,
                    "sso": "google",
                    "firstName": service.strip_name(str(info.get("given_name") or ""))[:100],
                    "lastName": service.strip_name(str(info.get("family_name") or ""))[:100],
                    "message": SIGNUP_MESSAGE,
                }
            )
        )
    flash(outcome.message or FAILED, "error")
    return redirect(FAIL_URL)
