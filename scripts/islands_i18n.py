"""The islands' message catalogue: extract, update, check.

    .venv/bin/python scripts/islands_i18n.py          # rewrite islands.pot and update every islands.po
    .venv/bin/python scripts/islands_i18n.py --check  # exit 1 if the catalogue is stale or untranslated

Every `t("English text", {...})` call in static_src (tests excluded) is a message; babel's own
`javascript` extractor reads our .ts/.tsx (with `jsx` on). The template is
sibol/translations/islands.pot (the `islands` domain, apart from the server's `messages`); each
language's sibol/translations/<lang>/LC_MESSAGES/islands.po is updated from it (new texts appear
with an empty msgstr for a translator; removed ones become obsolete). Locations carry file names
without line numbers, so editing a file does not change the catalogue; sibol/web/island_messages.py uses
them to embed, per island, only the texts that island's modules use.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIR = ROOT / "static_src"
TRANSLATIONS = ROOT / "sibol" / "translations"
TEMPLATE = TRANSLATIONS / "islands.pot"
DOMAIN = "islands"
LANGUAGES = ("fil",)
KEYWORDS = {"t": (1,)}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def source_files(root: Path = ROOT) -> list[Path]:
    """The island sources that can hold texts: .ts/.tsx under static_src, no tests or build code."""
    files = []
    for path in sorted((root / "static_src").rglob("*.ts*")):
        name = path.name
        if path.suffix not in (".ts", ".tsx") or ".test." in name or name.endswith(".d.ts"):
            continue
        if path.relative_to(root / "static_src").parts[0] in ("build", "test"):
            continue  # the Vite plugins and the vitest setup show nothing to people
        files.append(path)
    return files


def extract(root: Path = ROOT) -> Iterator[tuple[str, str]]:
    """(msgid, project-relative file) for every t("...") call."""
    for path in source_files(root):
        relative = path.relative_to(root).as_posix()
        for _lineno, message, _comments, _context in extract_from_file(
            "javascript", str(path), keywords=KEYWORDS, options={"jsx": "true"}, comment_tags=()
        ):
            if isinstance(message, tuple):
                message = message[0]
            if message:
                yield message, relative


def template_catalog(root: Path = ROOT) -> Catalog:
    catalog = Catalog(project="SIBOL console", domain=DOMAIN, fuzzy=False, charset="utf-8")
    for text, relative in extract(root):
        # No line number (babel writes none), so editing a file leaves the catalogue alone.
        location: Any = (relative, None)
        existing = catalog.get(text)
        if existing is None:
            catalog.add(text, locations=[location])
        elif location not in existing.locations:
            existing.locations.append(location)
    for message in catalog:
        message.locations.sort()
    return catalog


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


DATE_LINE = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*\n', re.MULTILINE)


def _write(path: Path, catalog: Catalog) -> None:
    """Writes the catalogue; leaves the file alone when only its header dates would change."""
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, include_lineno=False, sort_output=True)
    text = out.getvalue()
    if path.exists() and DATE_LINE.sub(b"", path.read_bytes()) == DATE_LINE.sub(b"", text):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)


def update() -> None:
    template = template_catalog()
    _write(TEMPLATE, template)
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=lang, domain=DOMAIN)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="SIBOL console", fuzzy=False)
        # No fuzzy matching: a guessed translation of a similar text is worse than none.
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        _write(path, catalog)


def problems(lang: str, root: Path = ROOT, path: Path | None = None) -> list[str]:
    """What keeps the `lang` catalogue (default: sibol/translations/<lang>/LC_MESSAGES/islands.po)
    from being complete, current and well-formed for the t() texts under `root`/static_src."""
    found: list[str] = []
    template = template_catalog(root)
    path = path or po_path(lang)
    if not path.exists():
        return [f"{path} is missing: run scripts/islands_i18n.py"]
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    for message in template:
        if not message.id:
            continue
        translated = catalog.get(message.id)
        if translated is None:
            found.append(f"not in {lang} islands.po (run scripts/islands_i18n.py): {message.id!r}")
            continue
        if not translated.string or not str(translated.string).strip():
            found.append(f"no {lang} translation: {message.id!r}")
        elif translated.fuzzy:
            found.append(f"fuzzy {lang} translation: {message.id!r}")
        elif set(PLACEHOLDER.findall(str(message.id))) != set(PLACEHOLDER.findall(str(translated.string))):
            found.append(f"{lang} translation's placeholders differ: {message.id!r} -> {translated.string!r}")
        if sorted(translated.locations) != sorted(message.locations):
            found.append(
                f"stale locations in {lang} islands.po (run scripts/islands_i18n.py): {message.id!r}"
            )
    return found


# --- Texts that bypass t() in .tsx files -------------------------------------------------------

# Attributes and props a person reads or hears (component props such as label/hint/cancel too).
HUMAN_ATTRIBUTES = r"(?:aria-label|aria-description|aria-placeholder|aria-valuetext|placeholder|title|alt|label|hint|cancel|data-label)"
_ATTRIBUTE_LITERAL = re.compile(
    HUMAN_ATTRIBUTES + r"""=(?:"([^"]*)"|'([^']*)'|\{\s*"([^"]*)"\s*\}|\{\s*`([^`]*)`\s*\})"""
)
# Text between a tag's ">" and the next "<" or "{" (not "=>" or "->", which are code).
_JSX_TEXT = re.compile(r"(?<![=\-])>([^<>{}]*)(?=[<{])")
# A string literal as a JSX child: {"Text"} or {cond ? "Text" : ...} or {... : "Text"}.
_CHILD_LITERAL = re.compile(r"""[{?:&|]\s*"([^"]*[A-Za-z][^"]*)"\s*[}:]""")
_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\w\"'])//[^\n]*", re.DOTALL)
_ENTITY = re.compile(r"&[a-zA-Z]+;|&#\d+;")
_CODE_HINTS = re.compile(r"[;=()\[\]]|\b(?:const|let|return|function|if|else|typeof|extends)\b|&&|\|\|")
_LETTER = re.compile(r"[A-Za-z]")
# DOM code (.ts and .tsx): texts set on elements or shown by the browser's own dialogs.
_DOM_LITERAL = re.compile(
    r"""(?:\.(?:textContent|innerText|placeholder|title|label)\s*=\s*|"""
    r"""setAttribute\(\s*"(?:aria-label|title|placeholder|alt)"\s*,\s*|"""
    r"""\b(?:alert|confirm|prompt)\(\s*|new Option\(\s*)(["'`])((?:(?!\1).)*[A-Za-z](?:(?!\1).)*)\1"""
)


def untranslated_in_ts(source: str) -> list[str]:
    """Texts DOM code sets on elements (textContent, placeholder, aria-label) or passes to alert,
    confirm or prompt as a literal instead of through t()."""
    source = _COMMENT.sub("", source)
    return [match.group(0) for match in _DOM_LITERAL.finditer(source)]


def untranslated_in_tsx(source: str) -> list[str]:
    """Human-facing texts in TSX source that are not passed through t(): JSX text between tags,
    string literals in human-facing attributes, and string literals rendered as children."""
    source = _COMMENT.sub("", source)
    found: list[str] = untranslated_in_ts(source)
    for match in _ATTRIBUTE_LITERAL.finditer(source):
        value = next(group for group in match.groups() if group is not None)
        if _LETTER.search(value):
            found.append(match.group(0))
    for match in _JSX_TEXT.finditer(source):
        text = _ENTITY.sub("", match.group(1)).strip()
        if _LETTER.search(text) and not _CODE_HINTS.search(text):
            found.append(text)
    for match in _CHILD_LITERAL.finditer(source):
        text = match.group(1)
        # Class names, types and keys are lower-case words or identifiers; people read sentences.
        if re.search(r"[A-Z]", text[:1]) and (" " in text or re.search(r"[.!?…:]$", text)):
            found.append(text)
    return found


def untranslated_files(root: Path = ROOT) -> dict[str, list[str]]:
    """Every .ts/.tsx file under static_src (tests excluded) with texts that bypass t()."""
    result: dict[str, list[str]] = {}
    for path in source_files(root):
        check = untranslated_in_tsx if path.suffix == ".tsx" else untranslated_in_ts
        texts = check(path.read_text(encoding="utf-8"))
        if texts:
            result[path.relative_to(root).as_posix()] = texts
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="report problems, change nothing")
    args = parser.parse_args(argv)
    if not args.check:
        update()
    issues = [issue for lang in LANGUAGES for issue in problems(lang)]
    issues += [
        f"{file}: not through t(): {text!r}" for file, texts in untranslated_files().items() for text in texts
    ]
    for issue in issues:
        print(issue, file=sys.stderr)
    return 1 if issues and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
