"""Delivery for slow links and other clients: compression, caching, CORS, CSRF."""

import json

import brotli
import pytest

from sibol.web.assets import MANIFEST
from tests.factories import make_account


@pytest.fixture
def built_entry():
    if not MANIFEST.exists():
        pytest.fail("islands are not built: run `npm run build` (make test does)")
    manifest = json.loads(MANIFEST.read_text())
    return manifest["static_src/islands/code-input.tsx"]["file"]


def test_built_assets_are_hashed_precompressed_and_cached_forever(client, built_entry):
    url = f"/static/dist/{built_entry}"
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    br = client.get(url, headers={"Accept-Encoding": "gzip, br"})
    assert br.headers["Content-Encoding"] == "br"
    assert brotli.decompress(br.data) == plain.data
    assert len(br.data) < len(plain.data)
    assert "immutable" in br.headers["Cache-Control"] and "max-age=31536000" in br.headers["Cache-Control"]
    assert "Accept-Encoding" in br.headers["Vary"]
    gz = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip"
    assert br.mimetype in ("text/javascript", "application/javascript")


def test_stylesheet_is_compressed_and_versioned(client):
    html = client.get("/login").get_data(as_text=True)
    href = html.split('rel="stylesheet" href="', 1)[1].split('"', 1)[0]
    assert href.startswith("/static/css/app.css?v=")
    res = client.get(href, headers={"Accept-Encoding": "br"})
    assert res.headers["Content-Encoding"] == "br"
    assert "immutable" in res.headers["Cache-Control"]
    assert b":root" in brotli.decompress(res.data)


def test_static_refuses_paths_outside_the_folder(client):
    assert client.get("/static/../sibol/config.py").status_code == 404
    assert client.get("/static/dist/manifest.json.br").status_code == 404
    assert client.get("/static/hot").status_code == 404


def test_html_and_json_are_compressed(client):
    page = client.get("/login", headers={"Accept-Encoding": "br"})
    assert page.headers.get("Content-Encoding") == "br"
    assert b"Sign in" in brotli.decompress(page.data)
    client.application.config["SIBOL_CORS_ORIGINS"] = []
    api = client.get("/api/no-such", headers={"Accept-Encoding": "gzip"})
    assert api.status_code == 404 and api.is_json  # small bodies stay uncompressed


@pytest.fixture
def app_overrides():
    return {"SIBOL_CORS_ORIGINS": ["https://app.example.org"]}


def test_cors_preflight_for_allowed_origin(client):
    res = client.options(
        "/api/auth/login",
        headers={
            "Origin": "https://app.example.org",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, authorization",
        },
    )
    assert res.status_code == 204
    assert res.headers["Access-Control-Allow-Origin"] == "https://app.example.org"
    assert res.headers["Access-Control-Allow-Credentials"] == "true"
    assert "POST" in res.headers["Access-Control-Allow-Methods"]
    assert "Authorization" in res.headers["Access-Control-Allow-Headers"]


def test_cors_refuses_other_origins(client, api_headers):
    res = client.options(
        "/api/auth/login", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    )
    assert "Access-Control-Allow-Origin" not in res.headers
    user = make_account()
    res = client.get("/api/modules/allowed", headers={"Origin": "https://evil.example", **api_headers(user)})
    assert res.status_code == 200 and "Access-Control-Allow-Origin" not in res.headers
    ok = client.get(
        "/api/modules/allowed", headers={"Origin": "https://app.example.org", **api_headers(user)}
    )
    assert ok.headers["Access-Control-Allow-Origin"] == "https://app.example.org"
