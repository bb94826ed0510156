"""Security headers on every response, and trusting a reverse proxy only when configured."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from flask import Flask, g, request
from werkzeug.middleware.proxy_fix import ProxyFix

from .vite_dev import dev_server_url


def origin_of(url: str | None) -> str | None:
    """scheme://host[:port] of an absolute http(s) address; None for anything else."""
    parts = urlsplit(url or "")
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}"


@lru_cache(maxsize=256)
def content_security_policy(
    dev_server: str | None, style_sources: tuple[str, ...] = (), client_origin: str | None = None
) -> str:
    """style_sources: the 'sha256-…' of the page's inline critical CSS (sibol/web/critical_css.py).
    Style attributes set from scripts (React, Chart.js) go through the CSSOM, which CSP allows.
    client_origin: the spec's client (SIBOL_CLIENT_URL), where some of our forms end (set-password
    redirects to its /login); browsers apply form-action to a form's redirects too.
    Cached: the same few policies were rebuilt on every response."""
    script = "'self'"
    connect = "'self'"
    style = " ".join(["'self'", *style_sources])
    if dev_server:
        # make dev: the Vite client and the React refresh preamble (one inline module).
        ws = dev_server.replace("http", "ws", 1)
        script += f" {dev_server} 'unsafe-inline'"
        connect += f" {dev_server} {ws}"
        style += " 'unsafe-inline'"  # make dev only: Vite injects the islands' CSS as <style>
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {script}",
            f"style-src {style}",
            "img-src 'self' data: blob:",
            "font-src 'self'",
            f"connect-src {connect}",
            "object-src 'none'",
            "base-uri 'self'",
            f"form-action 'self' {client_origin}" if client_origin else "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def install_security(app: Flask) -> None:
    proxies = app.config.get("SIBOL_TRUSTED_PROXIES", 0)
    if proxies:
        # X-Forwarded-* are believed only from this many proxies in front of the app.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies
        )
    if app.config["SIBOL_BASE_URL"].startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True
        app.config["REMEMBER_COOKIE_SECURE"] = True

    client_origin = origin_of(app.config.get("SIBOL_CLIENT_URL"))

    @app.after_request
    def security_headers(response):
        if getattr(response, "sibol_bare", False):
            return response  # a live region's 304: no body for these headers to guard
        headers = response.headers
        headers.setdefault(
            "Content-Security-Policy",
            content_security_policy(dev_server_url(), tuple(g.get("sibol_style_sources", ())), client_origin),
        )
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        if request.is_secure:
            headers.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        if request.path.startswith("/api/") or response.mimetype == "text/html":
            # Pages and data are per-user: never stored by shared caches.
            headers.setdefault("Cache-Control", "no-store")
        return response
