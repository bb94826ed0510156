"""Google sign-in in the API tests: the browser's part of the flow against the local OAuth provider
(tests/auth_oauth_provider.py), and the user the provider reports."""

from __future__ import annotations

from urllib.parse import urlsplit

import requests


def google_flow(client, provider, user: dict):
    """Runs the browser's part: our redirect, the provider's, and our callback. Returns its answer."""
    provider.user = user
    start = client.get("/api/auth/google")
    assert start.status_code == 302
    assert start.headers["Location"].startswith(provider.url + "/authorize?")
    back = requests.get(start.headers["Location"], allow_redirects=False, timeout=10)
    assert back.status_code == 302
    callback = urlsplit(back.headers["Location"])
    assert callback.path == "/api/auth/google/authorized"
    return client.get(f"{callback.path}?{callback.query}")


def google_user(email="ana@example.test", sub="g-100", **extra):
    return {
        "sub": sub,
        "email": email,
        "email_verified": True,
        "given_name": "Ana",
        "family_name": "Cruz",
        **extra,
    }
