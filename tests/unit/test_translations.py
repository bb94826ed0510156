"""The translation-completeness check, part of `make test`.

(a) Every message of the server (sibol/**.py, templates/**.html and .txt, extracted in-process
    with babel.cfg) has a Filipino translation: present in the .po, not empty, not fuzzy.
(b) No template has text a person reads outside gettext: text nodes and human-facing attributes
    (title, placeholder, aria-label, alt, data-confirm, submit values) with letters must be
    `{{ _("...") }}` (short allowlist in sibol/i18n/tools.ALLOWED_LITERALS: the brand, units).
(c) Each translation carries exactly the placeholders of its msgid.

When a check fails after new strings were added: `make translations`, then fill the empty
msgstr entries of sibol/translations/fil/LC_MESSAGES/messages.po (README.md, Languages).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sibol.i18n.tools import ROOT, Literal, extract, placeholders, po_path, read_catalog, template_literals

TEMPLATES = ROOT / "templates"


@pytest.fixture(scope="module")
def extracted():
    return extract()


@pytest.fixture(scope="module")
def filipino():
    return read_catalog(po_path("fil"), "fil")


def _texts(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def test_every_message_has_a_filipino_translation(extracted, filipino):
    missing = []
    for message in extracted:
        if not message.id:
            continue
        found = filipino.get(message.id, context=message.context)
        if found is None or found.fuzzy or not all(_texts(found)):
            where = ", ".join(f"{path}:{line}" for path, line in message.locations[:2])
            missing.append(f"{message.id!r} ({where})")
    assert not missing, (
        f"{len(missing)} message(s) lack a Filipino translation; run `make translations` and fill "
        "sibol/translations/fil/LC_MESSAGES/messages.po:\n" + "\n".join(missing)
    )


def test_no_template_has_text_outside_gettext():
    found = []
    for path in sorted(TEMPLATES.rglob("*")):
        if path.is_file() and path.suffix in (".html", ".txt"):
            for literal in template_literals(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}:{literal.line}: {literal.text[:80]!r}")
    assert not found, 'Text outside _() in templates (wrap it in {{ _("...") }}):\n' + "\n".join(found)


def test_translations_keep_the_placeholders_of_their_msgid(filipino):
    wrong = []
    for message in filipino:
        if not message.id or not message.string:
            continue
        ids = list(message.id) if isinstance(message.id, tuple | list) else [message.id]
        expected = placeholders(ids[-1])
        for text in _texts(message):
            if text and placeholders(text) != expected and placeholders(text) != placeholders(ids[0]):
                wrong.append(f"{ids[0]!r}: {text!r}")
    assert not wrong, "Placeholders differ from the msgid:\n" + "\n".join(wrong)


# The scanner itself: it must catch what the check exists for, and let gettext through.
@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("<p>Hello there</p>", ["Hello there"]),
        ('<input placeholder="Search">', ['placeholder="Search"']),
        ('<button aria-label="Close">×</button>', ['aria-label="Close"']),
        ('<img alt="QR code of {{ code }}">', ['alt="QR code of {{ code }}"']),
        ('<input type="submit" value="Save">', ['value="Save"']),
        ("{% block title %}Sign in{% endblock %}", ["Sign in"]),
        ('<p>{{ _("Hello there") }}</p>', []),
        ('<input placeholder="{{ _("Search") }}">', []),
        ("<h1>SIBOL</h1><span>12 kg</span><p>{{ value }} · 3</p>", []),
        ('<script>const label = "not for people";</script>', []),
        ("{% block body_class %}auth-body{% endblock %}", []),
        ('<input type="hidden" name="next" value="/dashboard">', []),
        # A fallback printed as it is inside {{ }} (outside a tag): 'never' reached Filipino pages.
        ("<td>{{ when if when else 'never' }}</td>", ["'never'"]),
        ('<p>{{ email or "none" }}</p>', ['"none"']),
        ("<td>{{ when if when else _('never') }}</td>", []),
        ("<p class=\"{{ 'a' if x else 'b' }}\">{{ link or '/notifications' }}</p>", []),
    ],
)
def test_the_scanner_finds_text_outside_gettext(source, expected):
    assert [literal.text for literal in template_literals(source)] == expected


def test_the_placeholder_reader():
    assert placeholders("%(name)s has %(points)s points") == ["name", "points"]
    assert placeholders("100%% sure") == []
    assert isinstance(Literal(1, "x").text, str)
    assert Path(po_path("fil")).exists()


def test_catalogues_compile_when_missing_or_stale(tmp_path):
    """A fresh clone has no .mo: the app compiles it at start-up, and again when the .po changes."""
    import os
    import shutil

    from babel.messages.mofile import read_mo

    from sibol.i18n.languages import compile_catalogues

    target = tmp_path / "fil" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(po_path("fil"), target / "messages.po")
    assert compile_catalogues(tmp_path) == [target / "messages.mo"]
    with (target / "messages.mo").open("rb") as handle:
        assert read_mo(handle).get("Sign in to the SIBOL console").string == "Mag-sign in sa console ng SIBOL"
    assert compile_catalogues(tmp_path) == []  # up to date: left alone
    later = (target / "messages.po").stat().st_mtime + 10
    os.utime(target / "messages.po", (later, later))  # edited
    assert compile_catalogues(tmp_path) == [target / "messages.mo"]
