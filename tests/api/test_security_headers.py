import pytest

from sibol import create_app
from tests.conftest import base_overrides


@pytest.mark.parametrize("path", ["/login", "/healthz", "/api/no-such", "/no-such-page"])
def test_every_response_carries_security_headers(client, path):
    res = client.get(path)
    csp = res.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src", 1)[1].split(";")[0]
    assert "frame-ancestors 'none'" in csp
    assert res.headers["X-Content-Type-Options"] == "nosniff"
    assert res.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"


def test_pages_carry_no_inline_script(client):
    html = client.get("/login").get_data(as_text=True)
    for chunk in html.split("<script")[1:]:
        tag = chunk.split(">", 1)[0]
        assert "src=" in tag or 'type="application/json"' in tag, f"inline script: <script{tag}>"


def test_proxy_headers_are_ignored_unless_trusted(database_url):
    plain = create_app(base_overrides(database_url)).test_client()
    res = plain.get("/login", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in res.headers
    trusted = create_app(base_overrides(database_url, SIBOL_TRUSTED_PROXIES=1)).test_client()
    res = trusted.get("/login", headers={"X-Forwarded-Proto": "https"})
    assert res.headers["Strict-Transport-Security"].startswith("max-age=")


def test_https_base_url_makes_cookies_secure(database_url):
    app = create_app(base_overrides(database_url, SIBOL_BASE_URL="https://sibol.example.org"))
    assert app.config["SESSION_COOKIE_SECURE"] is True
