"""A small OAuth2 provider for the Google sign-in tests: real HTTP, real redirects and code exchange.

provider = OAuthProvider().start()
provider.user = {"sub": "g-1", "email": "a@example.test", "email_verified": True, ...}
provider.refuse = True   # the next /authorize answers error=access_denied
"""

from __future__ import annotations

import secrets
import socket
import threading
from urllib.parse import urlencode

from flask import Flask, jsonify, redirect, request
from werkzeug.serving import make_server

CLIENT_ID = "sibol-test-client"
CLIENT_SECRET = "sibol-test-secret"  # noqa: S105 - a test secret


class OAuthProvider:
    def __init__(self):
        self.user: dict = {}
        self.refuse = False
        self.codes: dict[str, dict] = {}
        self.tokens: dict[str, dict] = {}
        self.requests: list[str] = []
        app = Flask("oauth-provider")
        app.add_url_rule("/authorize", view_func=self.authorize)
        app.add_url_rule("/token", view_func=self.token, methods=["POST"])
        app.add_url_rule("/userinfo", view_func=self.userinfo)
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> OAuthProvider:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)

    def config(self) -> dict:
        return {
            "GOOGLE_OAUTH_CLIENT_ID": CLIENT_ID,
            "GOOGLE_OAUTH_CLIENT_SECRET": CLIENT_SECRET,
            "GOOGLE_OAUTH_AUTHORIZATION_URL": f"{self.url}/authorize",
            "GOOGLE_OAUTH_TOKEN_URL": f"{self.url}/token",
            "GOOGLE_OAUTH_USERINFO_URL": f"{self.url}/userinfo",
        }

    # The three endpoints -------------------------------------------------------------
    def authorize(self):
        self.requests.append("authorize")
        args = request.args
        if args.get("client_id") != CLIENT_ID or args.get("response_type") != "code":
            return "bad client", 400
        target = args["redirect_uri"]
        if self.refuse:
            return redirect(
                f"{target}?{urlencode({'error': 'access_denied', 'state': args.get('state', '')})}"
            )
        code = secrets.token_urlsafe(16)
        self.codes[code] = {"user": dict(self.user), "redirect_uri": target}
        return redirect(f"{target}?{urlencode({'code': code, 'state': args.get('state', '')})}")

    def token(self):
        self.requests.append("token")
        form = request.form
        secret = form.get("client_secret") or (
            request.authorization.password if request.authorization else None
        )
        grant = self.codes.pop(form.get("code", ""), None)
        if secret != CLIENT_SECRET or grant is None or form.get("redirect_uri") != grant["redirect_uri"]:
            return jsonify(error="invalid_grant"), 400
        access = secrets.token_urlsafe(16)
        self.tokens[access] = grant["user"]
        return jsonify(
            access_token=access,
            token_type="Bearer",
            expires_in=3600,  # noqa: S106
            scope="openid email profile",
        )

    def userinfo(self):
        self.requests.append("userinfo")
        header = request.headers.get("Authorization", "")
        user = self.tokens.get(header.removeprefix("Bearer "))
        if user is None:
            return jsonify(error="invalid_token"), 401
        return jsonify(user)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
