"""The islands' texts on the page: per island, only the translations it uses.

The islands call `t("English text")` (static_src/lib/i18n.ts). scripts/islands_i18n.py extracts
those texts into sibol/translations/islands.pot and <lang>/LC_MESSAGES/islands.po, each message
located in the files that use it. The Vite build writes dist/island-modules.json: for each island
entry, the source files it loads (static_src/build/island-modules.ts). So for the entries a page
loads, the server knows which texts they can show, and embeds just those translations:

    <script type="application/json" data-island-messages lang="fil">{"Close": "Isara"}</script>

A JSON script is data, never run, so the Content-Security-Policy needs nothing for it; the island
reads it on first use, with no extra request. English pages embed nothing (the message ids are the
English texts). `vite_asset()` and `asset_url()` (sibol/web/assets.py) call in here, so templates need
no change; `island_messages(...)` is also a Jinja global for an island mounted some other way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.pofile import read_po
from flask import Flask, current_app, has_request_context, request
from flask_babel import get_locale
from markupsafe import Markup

from ..i18n.languages import DEFAULT_LANGUAGE, LANGUAGES
from .vite_dev import dev_server_url

TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
MODULES_FILE = Path(__file__).resolve().parents[1] / "static" / "dist" / "island-modules.json"
DOMAIN = "islands"


@dataclass(frozen=True)
class Catalogue:
    """One language's island translations and, per island entry, the source files it loads."""

    messages: dict[str, str]  # English text -> translation (only translated, non-fuzzy ones)
    files: dict[str, frozenset[str]]  # English text -> the source files that use it
    modules: dict[str, frozenset[str]] | None  # entry -> its source files; None: unknown (dev)

    def for_entries(self, entries: tuple[str, ...]) -> dict[str, str]:
        if self.modules is None:
            return dict(self.messages)
        wanted: set[str] = set()
        for entry in entries:
            wanted |= self.modules.get(entry, frozenset({entry}))
        return {
            text: self.messages[text] for text in self.messages if self.files.get(text, frozenset()) & wanted
        }


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return None


def _read_modules() -> dict[str, frozenset[str]] | None:
    try:
        data = json.loads(MODULES_FILE.read_text())
    except FileNotFoundError:
        return None
    return {entry: frozenset(files) | {entry} for entry, files in data.items()}


def _read_catalogue(lang: str) -> Catalogue:
    path = TRANSLATIONS / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    messages: dict[str, str] = {}
    files: dict[str, frozenset[str]] = {}
    if path.exists():
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain=DOMAIN)
        for message in catalog:
            if not message.id or not isinstance(message.id, str) or message.fuzzy:
                continue
            # A translation equal to the English (Email, Password) needs no bytes on the page.
            if isinstance(message.string, str) and message.string.strip() and message.string != message.id:
                messages[message.id] = message.string
                files[message.id] = frozenset(location for location, _line in message.locations)
    return Catalogue(messages=messages, files=files, modules=_read_modules())


def catalogue(lang: str) -> Catalogue:
    """`lang`'s catalogue, read once; read again when islands.po or the build's module map change."""
    cache: dict[str, tuple[tuple[float | None, float | None], Catalogue]]
    cache = current_app.extensions.setdefault("sibol_island_i18n", {})
    stamp = (_mtime(TRANSLATIONS / lang / "LC_MESSAGES" / f"{DOMAIN}.po"), _mtime(MODULES_FILE))
    cached = cache.get(lang)
    if cached is None or cached[0] != stamp:
        cached = (stamp, _read_catalogue(lang))
        cache[lang] = cached
    return cached[1]


def page_language() -> str:
    if not has_request_context():
        return DEFAULT_LANGUAGE
    locale = get_locale()
    lang = str(locale) if locale is not None else DEFAULT_LANGUAGE
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


@dataclass
class _PageState:
    pending: list[str] = field(default_factory=list)  # on-demand entries whose texts are not out yet
    sent: set[str] = field(default_factory=set)  # texts the page has embedded


def _page() -> _PageState:
    """This response's state, kept on the request (not on g, which tests share between requests)."""
    state = getattr(request, "_sibol_island_i18n", None)
    if state is None:
        state = _PageState()
        setattr(request, "_sibol_island_i18n", state)  # noqa: B010 - a private attribute of ours
    return state


def defer_island_messages(entry: str) -> None:
    """Remembers an island the page loads on demand (asset_url): the next block carries its texts."""
    if has_request_context():
        _page().pending.append(entry)


def island_messages(*entries: str) -> Markup:
    """The translations the given island entries (and any deferred ones) use and the page has not
    embedded yet, as one JSON script block; empty on an English page or when there are none."""
    lang = page_language()
    if lang == DEFAULT_LANGUAGE or not has_request_context():
        return Markup("")
    page = _page()
    wanted = (*page.pending, *entries)
    page.pending.clear()
    sent = page.sent
    # With the Vite dev server (make dev) the built module map may be stale: send every text.
    everything = dev_server_url() is not None
    available = catalogue(lang)
    chosen = available.messages if everything else available.for_entries(wanted)
    messages = {text: value for text, value in chosen.items() if text not in sent}
    if not messages:
        return Markup("")
    sent.update(messages)
    payload = json.dumps(messages, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    # Inside <script>, "</" would end the element and "<!--" could start a comment: escape "<".
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(  # noqa: S704 - JSON with <, > and & escaped; lang is one of LANGUAGES
        f'<script type="application/json" data-island-messages lang="{lang}">{payload}</script>'
    )


def init_island_i18n(app: Flask) -> None:
    app.jinja_env.globals["island_messages"] = island_messages
