"""vite_asset(): script and style tags for island entries.

With the dev server's hot file present (make dev), tags point at the Vite dev server for HMR;
otherwise they come from the production manifest written by `npm run build`.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Flask, current_app, g
from markupsafe import Markup, escape

from .island_messages import defer_island_messages, init_island_i18n, island_messages
from .vite_dev import dev_server_url

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"
DIST_DIR = STATIC_DIR / "dist"
MANIFEST = DIST_DIR / "manifest.json"
DIST_URL = "/static/dist/"


class AssetMissing(RuntimeError):
    pass


def _manifest() -> dict:
    cached = current_app.extensions.get("sibol_manifest")
    if cached is not None and not current_app.debug:
        return cached
    try:
        data = json.loads(MANIFEST.read_text())
    except FileNotFoundError:
        raise AssetMissing(
            f"{MANIFEST} is missing: build the islands with `npm run build` (make run does)."
        ) from None
    current_app.extensions["sibol_manifest"] = data
    return data


def _emitted() -> set[str]:
    if "sibol_assets_emitted" not in g:
        g.sibol_assets_emitted = set()
    return g.sibol_assets_emitted


def _dev_tags(url: str, entries: tuple[str, ...]) -> list[str]:
    tags: list[str] = []
    seen = _emitted()
    if "@vite/client" not in seen:
        seen.add("@vite/client")
        tags.append(
            '<script type="module">'
            f'import RefreshRuntime from "{url}/@react-refresh";'
            "RefreshRuntime.injectIntoGlobalHook(window);"
            "window.$RefreshReg$ = () => {};"
            "window.$RefreshSig$ = () => (type) => type;"
            "window.__vite_plugin_react_preamble_installed__ = true;"
            "</script>"
        )
        tags.append(f'<script type="module" src="{url}/@vite/client"></script>')
    for entry in entries:
        if entry not in seen:
            seen.add(entry)
            tags.append(f'<script type="module" src="{url}/{escape(entry)}"></script>')
    return tags


def _imports(manifest: dict, key: str, out: list[str], seen: set[str]) -> None:
    """Every chunk an entry imports, walked recursively, each once."""
    for dep in manifest[key].get("imports", []):
        if dep not in seen:
            seen.add(dep)
            _imports(manifest, dep, out, seen)
            out.append(dep)


def _build_tags(entries: tuple[str, ...]) -> list[str]:
    manifest = _manifest()
    seen = _emitted()
    styles: list[str] = []
    preloads: list[str] = []
    scripts: list[str] = []
    for entry in entries:
        if entry not in manifest:
            raise AssetMissing(f"{entry} is not in the Vite manifest; is it under static_src/islands/?")
        chunks: list[str] = []
        _imports(manifest, entry, chunks, set())
        for key in [*chunks, entry]:
            for css in manifest[key].get("css", []):
                if css not in seen:
                    seen.add(css)
                    styles.append(f'<link rel="stylesheet" href="{DIST_URL}{escape(css)}">')
        for key in chunks:
            file = manifest[key]["file"]
            if file not in seen:
                seen.add(file)
                preloads.append(f'<link rel="modulepreload" href="{DIST_URL}{escape(file)}">')
        file = manifest[entry]["file"]
        if file not in seen:
            seen.add(file)
            scripts.append(f'<script type="module" src="{DIST_URL}{escape(file)}"></script>')
    return styles + preloads + scripts


def vite_asset(*entries: str) -> Markup:
    """Tags for the given entries, e.g. vite_asset("static_src/islands/code-input.tsx")."""
    url = dev_server_url()
    tags = _dev_tags(url, entries) if url else _build_tags(entries)
    messages = island_messages(*entries)  # the islands' texts in the page's language
    # noqa below: built from escaped manifest paths and island_messages()'s escaped JSON only
    return Markup("\n".join([messages, *tags] if messages else tags))  # noqa: S704


def asset_url(entry: str) -> str:
    """The built URL of one entry (for islands loaded on demand, e.g. when a dialog opens)."""
    defer_island_messages(entry)  # its texts go out with the page's next vite_asset()
    url = dev_server_url()
    if url:
        return f"{url}/{entry}"
    manifest = _manifest()
    if entry not in manifest:
        raise AssetMissing(f"{entry} is not in the Vite manifest")
    return DIST_URL + manifest[entry]["file"]


def init_assets(app: Flask) -> None:
    app.jinja_env.globals["vite_asset"] = vite_asset
    app.jinja_env.globals["asset_url"] = asset_url
    init_island_i18n(app)
