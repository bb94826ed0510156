"""Catalogue upkeep: extraction, .po update, and the template literal scanner.

`make translations` (python -m sibol.i18n.tools) re-extracts every message of the server into
sibol/translations/messages.pot and merges it into each language's messages.po, keeping the
translations already there; new messages arrive with an empty msgstr for a translator to fill.
tests/unit/test_translations.py uses the same functions: it fails when a message has no Filipino
translation, when a template has text outside gettext, or when placeholders differ.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "sibol" / "translations"
POT = TRANSLATIONS / "messages.pot"
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "lazy_gettext": None,
    "lazy_ngettext": (1, 2),
    "_l": None,
    "N_": None,
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}


def po_path(language: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"


def extract() -> Catalog:
    """Every message of sibol/ and templates/ as babel.cfg maps them (python and jinja2)."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    catalog = Catalog(project="SIBOL console", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT),
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=("Translators:",),
        strip_comment_tags=True,
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def read_catalog(path: Path, language: str) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


def write_catalog(path: Path, catalog: Catalog) -> None:
    """Writes a .po whole (temporary file, then rename): a running app never reads half of it."""
    temporary = path.with_suffix(".po.tmp")
    with temporary.open("wb") as handle:
        write_po(handle, catalog, width=100, ignore_obsolete=True)
    os.replace(temporary, path)


def update(languages: tuple[str, ...] = ("fil",)) -> None:
    template = extract()
    TRANSLATIONS.mkdir(parents=True, exist_ok=True)
    with POT.open("wb") as handle:
        write_po(handle, template, width=100, omit_header=False, sort_output=False)
    for language in languages:
        path = po_path(language)
        if path.exists():
            catalog = read_catalog(path, language)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, project="SIBOL console", charset="utf-8")
        # No fuzzy matching: a guessed translation would hide a missing one from the check.
        catalog.update(template, no_fuzzy_matching=True)
        catalog.fuzzy = False  # the header: the translations themselves are reviewed
        catalog.last_translator = "SIBOL console developers"
        catalog.language_team = "Filipino"
        catalog.copyright_holder = "SIBOL console"
        write_catalog(path, catalog)


# The template scanner ---------------------------------------------------------------------------

# Texts people read that need no translation: the brand, and symbols the regex lets through.
ALLOWED_LITERALS = {
    "SIBOL",  # the product's name, the same in every language
    "SIBOL console",  # the product's full name in the <title> suffix
    "kg",  # the SI unit symbol
    "Filipino",  # the switcher names each language in its own tongue
    "English",
}
# Words that read the same in every language, allowed next to numbers and values ("12 kg").
ALLOWED_WORDS = re.compile(r"\b(?:SIBOL|kg|kWh)\b")
HUMAN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt", "data-confirm", "data-loading-text")
_TOKEN = re.compile(
    r"\{#.*?#\}"
    r"|\{%-?\s*(?:raw|trans)\b.*?%\}.*?\{%-?\s*end(?:raw|trans)\s*-?%\}"
    r"|\{%-?\s*block\s+(?:body_class|main_class)\s*-?%\}.*?\{%-?\s*endblock\b.*?%\}"  # CSS classes
    r"|\{%.*?%\}"
    r"|\{\{.*?\}\}"
    r"|<!--.*?-->"
    r"|<(script|style|textarea)\b(?:[^>{]|\{\{.*?\}\}|\{%.*?%\}|\{)*>.*?</\1\s*>"
    r"|<[a-zA-Z/!](?:[^<>{]|\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|\{)*>",
    re.S,
)
_ATTRIBUTE_NAMES = "|".join(HUMAN_ATTRIBUTES)
_ATTRIBUTE = re.compile(rf"""\s({_ATTRIBUTE_NAMES})\s*=\s*("[^"]*"|'[^']*')""", re.S)
_SUBMIT_VALUE = re.compile(r"""\svalue\s*=\s*("[^"]*"|'[^']*')""", re.S)
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_ENTITY = re.compile(r"&#?[a-zA-Z0-9]+;")
# A fallback text printed as it is: {{ value if value else 'never' }}, {{ email or "none" }}.
_FALLBACK = re.compile(r"""\b(?:else|or)\s+("[^"]*"|'[^']*')\s*-?\}\}$""")
_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Literal:
    line: int
    text: str


def _is_literal(text: str) -> bool:
    text = _ENTITY.sub(" ", _JINJA.sub(" ", text)).strip()
    if " ".join(text.split()) in ALLOWED_LITERALS:
        return False
    return bool(_LETTER.search(ALLOWED_WORDS.sub(" ", text)))


def template_literals(source: str) -> Iterator[Literal]:
    """Text nodes and human-facing attribute values with letters that are not inside gettext."""
    position = 0
    for match in _TOKEN.finditer(source):
        text = source[position : match.start()]
        if _is_literal(text):
            yield Literal(source.count("\n", 0, position + len(text) - len(text.lstrip())) + 1, text.strip())
        position = match.end()
        token = match.group(0)
        fallback = _FALLBACK.search(token) if token.startswith("{{") else None
        if fallback and not fallback.group(1)[1:].startswith("/") and _is_literal(fallback.group(1)[1:-1]):
            yield Literal(source.count("\n", 0, match.start()) + 1, fallback.group(1))
        if token.startswith("<") and not token.startswith(("<!--", "</")):
            for attribute in _ATTRIBUTE.finditer(token):
                if _is_literal(attribute.group(2)[1:-1]):
                    yield Literal(source.count("\n", 0, match.start()) + 1, attribute.group(0).strip())
            if re.match(r"<input\b", token) and re.search(r"""type\s*=\s*["']?(submit|button)""", token):
                for value in _SUBMIT_VALUE.finditer(token):
                    if _is_literal(value.group(1)[1:-1]):
                        yield Literal(source.count("\n", 0, match.start()) + 1, value.group(0).strip())
    tail = source[position:]
    if _is_literal(tail):
        yield Literal(source.count("\n", 0, position) + 1, tail.strip())


_PLACEHOLDER = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdifr]")


def placeholders(text: str) -> list[str]:
    return sorted(_PLACEHOLDER.findall(text.replace("%%", "")))


def main(argv: list[str]) -> int:
    update()
    missing = [m.id for m in read_catalog(po_path("fil"), "fil") if m.id and (not m.string or m.fuzzy)]
    print(f"Updated {POT.relative_to(ROOT)} and {po_path('fil').relative_to(ROOT)}.")
    if missing:
        print(f"{len(missing)} message(s) still need a Filipino translation (empty msgstr in the .po).")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
