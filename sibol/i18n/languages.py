"""Languages: English and Filipino through Flask-Babel.

Templates use `{{ _("...") }}` (Flask-Babel installs gettext into Jinja); Python code uses
`gettext` for texts built during a request and `lazy_gettext` for texts defined at import time.
The language is the account's choice, else the anonymous visitor's choice (a long-lived cookie
set by the switcher), else the browser's Accept-Language, else English.

The catalogue is sibol/translations/<lang>/LC_MESSAGES/messages.po (domain `messages`); the
compiled .mo is not committed: `compile_catalogues()` builds it at start-up when it is missing
or older than its .po (`make translations` re-extracts and updates the .po files).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, g, has_request_context, request
from flask_babel import Babel, get_locale, get_translations, refresh
from flask_login import current_user
from markupsafe import Markup

# code -> name shown in the switcher (each in its own language).
LANGUAGES = {"en": "English", "fil": "Filipino"}
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "sibol_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TRANSLATIONS_DIR = Path(__file__).resolve().parents[1] / "translations"

babel = Babel()


def select_locale() -> str:
    if not has_request_context():
        return DEFAULT_LANGUAGE  # a task or a command: e-mails choose with force_locale
    chosen = g.get("sibol_language")
    if chosen in LANGUAGES:
        return chosen
    if not g.get("sibol_choosing_language"):
        # Loading the account may itself translate (the session loader's "Your session has
        # ended"): that inner call skips the account instead of loading it again, forever.
        g.sibol_choosing_language = True
        try:
            language = getattr(current_user, "language", None) if current_user.is_authenticated else None
        finally:
            g.pop("sibol_choosing_language", None)
        if language in LANGUAGES:
            return language
    cookie = request.cookies.get(LANGUAGE_COOKIE)
    if cookie in LANGUAGES:
        return cookie
    return request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT_LANGUAGE) or DEFAULT_LANGUAGE


def N_(text: str) -> str:  # noqa: N802 - gettext's conventional name for "no-op"
    """Marks a module-level English text for extraction; translate it where it is used with
    gettext(TEXT). The constant stays a plain str (tests and comparisons read it in English)."""
    return text


def bound_gettext() -> Callable[..., str]:
    """gettext bound to this request's catalogue, for a text translated once per row of a list.
    Flask-Babel's gettext looks up the domain, the locale and the catalogue on every call (about
    10 us, a tenth of a machines page's API time for its "5 min ago" texts)."""
    ugettext = get_translations().ugettext

    def gettext(string: str, **variables: object) -> str:
        text = ugettext(string)
        return text % variables if variables else text

    return gettext


def current_language() -> str:
    """The code of the language this request renders in ("en" or "fil")."""
    locale = get_locale()
    return str(locale) if locale is not None and str(locale) in LANGUAGES else DEFAULT_LANGUAGE


def _element(tag: str, value: object, attrs: dict) -> Markup:
    rendered = Markup("").join(Markup(' {}="{}"').format(k.replace("_", "-"), v) for k, v in attrs.items())
    return Markup("<{0}{1}>{2}</{0}>").format(tag, rendered, value)


def strong(value: object, **attrs: object) -> Markup:
    """<strong> around a value inside a translated sentence, so the sentence stays whole:
    {{ _("We will email %(email)s.", email=strong(email)) }} (the value is escaped)."""
    return _element("strong", value, attrs)


def code(value: object, **attrs: object) -> Markup:
    return _element("code", value, attrs)


def anchor(href: str, text: object, **attrs: object) -> Markup:
    """<a href> inside a translated sentence: {{ _("You can now %(link)s.", link=anchor(url, _("sign in"))) }}."""
    return _element("a", text, {"href": href, **attrs})


def compile_catalogues(directory: Path = TRANSLATIONS_DIR) -> list[Path]:
    """Compiles every messages.po (and islands.po) whose .mo is missing or stale; returns those
    written. Written to a temporary file and renamed, so concurrent workers never read half a file."""
    written = []
    for po_path in sorted(directory.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        try:
            # The .mo carries its .po's mtime: any other .po time (an edit, a merge, a
            # checkout, a .po still being written when this one was read) compiles again.
            source_time = po_path.stat().st_mtime_ns
            if mo_path.exists() and mo_path.stat().st_mtime_ns == source_time:
                continue
            with po_path.open("rb") as po_file:
                catalog = read_po(po_file, locale=po_path.parent.parent.name)
            fd, tmp = tempfile.mkstemp(dir=po_path.parent, suffix=".mo.tmp")
            with os.fdopen(fd, "wb") as mo_file:
                write_mo(mo_file, catalog)
            os.chmod(tmp, 0o644)
            os.utime(tmp, ns=(source_time, source_time))
            os.replace(tmp, mo_path)
            written.append(mo_path)
        except OSError:  # a read-only install ships its .mo files
            continue
    return written


def init_i18n(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS_DIR))
    compile_catalogues()
    babel.init_app(app, locale_selector=select_locale, default_timezone="UTC")
    app.jinja_env.globals.update(
        LANGUAGES=LANGUAGES, current_language=current_language, strong=strong, code=code, anchor=anchor
    )

    @app.before_request
    def fresh_language():
        # Flask-Babel keeps the chosen locale on the app context, which a test (or a command)
        # may keep across requests: each request chooses again.
        g.pop("sibol_language", None)
        refresh()
