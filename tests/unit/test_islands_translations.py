"""The islands' texts in Filipino: the catalogue is complete and current, no island text
bypasses t(), and a page embeds, per island it loads, only the translations that island uses."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from sibol.models import RoleId
from sibol.web import island_messages as island_i18n
from tests.factories import make_account

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("islands_i18n", ROOT / "scripts" / "islands_i18n.py")
assert _spec and _spec.loader
islands_i18n = importlib.util.module_from_spec(_spec)
sys.modules["islands_i18n"] = islands_i18n
_spec.loader.exec_module(islands_i18n)

BLOCK = re.compile(r'<script type="application/json" data-island-messages lang="(\w+)">(.*?)</script>', re.S)
FIL_PO = ROOT / "sibol" / "translations" / "fil" / "LC_MESSAGES" / "islands.po"


def filipino() -> dict[str, str]:
    with FIL_PO.open("rb") as handle:
        return {m.id: m.string for m in read_po(handle, locale="fil") if m.id}


def blocks(html: str) -> list[tuple[str, dict[str, str]]]:
    return [(lang, json.loads(text)) for lang, text in BLOCK.findall(html)]


# --- The catalogue -------------------------------------------------------------------------------


def test_every_island_text_has_a_current_filipino_translation():
    problems = islands_i18n.problems("fil")
    assert problems == [], "\n".join(
        ["Run .venv/bin/python scripts/islands_i18n.py and translate:", *problems]
    )


def test_the_template_lists_every_island_text():
    with (ROOT / "sibol" / "translations" / "islands.pot").open("rb") as handle:
        template = {m.id for m in read_po(handle) if m.id}
    extracted = {message for message, _file in islands_i18n.extract()}
    assert template == extracted
    # Texts the spec gives in English are message ids as they are (spot checks on several islands).
    assert {
        "Send Reset Code",
        "Passwords do not match",
        "Failed to load machine data",
        "Create User",
    } <= extracted


def test_texts_shared_with_the_server_read_the_same_in_filipino():
    """A text both the server (messages.po) and an island (islands.po) show, such as a process
    state the island updates after the server rendered it, must not change words when JavaScript
    takes over. Passes trivially until the server's Filipino catalogue exists."""
    server_po = ROOT / "sibol" / "translations" / "fil" / "LC_MESSAGES" / "messages.po"
    if not server_po.exists():
        pytest.skip("no Filipino messages.po yet")
    with server_po.open("rb") as handle:
        server = {m.id: m.string for m in read_po(handle, locale="fil") if m.id and m.string and not m.fuzzy}
    islands = filipino()
    differ = {
        text: (server[text], islands[text])
        for text in server.keys() & islands.keys()
        if server[text] != islands[text]
    }
    assert differ == {}, "align these (server, island) translations"


def _fake_project(tmp_path: Path, po_body: str) -> Path:
    source = tmp_path / "static_src" / "islands"
    source.mkdir(parents=True)
    (source / "x.tsx").write_text(
        'import { t } from "../lib/i18n";\n'
        'export const X = () => <p title={t("Hello {name}", { name: "A" })}>{t("Bye")}{t("Stay")}</p>;\n'
    )
    po = tmp_path / "islands.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n' + po_body)
    return po


def test_the_check_names_missing_empty_fuzzy_and_misplaced_translations(tmp_path):
    location = "#: static_src/islands/x.tsx\n"
    po = _fake_project(
        tmp_path,
        f'{location}msgid "Hello {{name}}"\nmsgstr "Kumusta {{pangalan}}"\n\n'
        f'{location}#, fuzzy\nmsgid "Bye"\nmsgstr "Paalam"\n\n'
        f'{location}msgid "Stay"\nmsgstr ""\n\n',
    )
    problems = islands_i18n.problems("fil", root=tmp_path, path=po)
    assert any("placeholders differ" in p and "Hello {name}" in p for p in problems)
    assert any(p.startswith("fuzzy") and "'Bye'" in p for p in problems)
    assert any(p.startswith("no fil translation") and "'Stay'" in p for p in problems)

    po = _fake_project(tmp_path / "b", f'{location}msgid "Hello {{name}}"\nmsgstr "Kumusta {{name}}"\n\n')
    problems = islands_i18n.problems("fil", root=tmp_path / "b", path=po)
    assert (
        sorted(p.split(":")[0] for p in problems)
        == ["not in fil islands.po (run scripts/islands_i18n.py)"] * 2
    )


def test_the_check_passes_a_complete_catalogue(tmp_path):
    location = "#: static_src/islands/x.tsx\n"
    po = _fake_project(
        tmp_path,
        f'{location}msgid "Bye"\nmsgstr "Paalam"\n\n'
        f'{location}msgid "Hello {{name}}"\nmsgstr "Kumusta, {{name}}"\n\n'
        f'{location}msgid "Stay"\nmsgstr "Manatili"\n\n',
    )
    assert islands_i18n.problems("fil", root=tmp_path, path=po) == []


# --- No text bypasses t() ------------------------------------------------------------------------


def test_no_island_source_shows_a_text_that_bypasses_t():
    assert islands_i18n.untranslated_files() == {}


@pytest.mark.parametrize(
    "source",
    [
        "<p>Hello there</p>",
        "<button>\n  Save changes\n</button>",
        '<button aria-label="Close">x</button>',
        "<input placeholder='Type a name' />",
        '<Field label={"First name"} />',
        "<td aria-label={`Edit machine #${id}`} />",
        '<Field id="a" hint="Leave blank to keep it." />',
        '<td data-label="Status" />',
        '<b>{busy ? "Saving..." : t("Save")}</b>',
        'button.textContent = "Hide";',
        'input.setAttribute("aria-label", `Remove ${area}`);',
        'window.alert("Passwords do not match");',
        'select.replaceChildren(new Option("Select a barangay", ""));',
    ],
)
def test_the_source_check_finds_a_text_outside_t(source):
    assert islands_i18n.untranslated_in_tsx(source), source


@pytest.mark.parametrize(
    "source",
    [
        '<p className="banner banner--error">{t("Hello there")}</p>',
        '<button aria-label={t("Close")}>&times;</button>',
        "const ok = (a: number, b: number) => a > b && b < 3;",
        "function f<T>(x: Promise<T>): Array<string> { return []; }",
        '<span className="req" aria-hidden="true">*</span>',
        '<a rel="prev" href={href}>&lsaquo; {t("Prev")}</a>',
        '<td>#{m.machine_id}</td>{" "}',
        'if (event.key === "ArrowDown") step = 1;',
        "// <p>Commented out</p>\nconst x = 1;",
    ],
)
def test_the_source_check_lets_code_and_t_calls_pass(source):
    assert islands_i18n.untranslated_in_tsx(source) == [], source


# --- Delivery on the page ------------------------------------------------------------------------


def test_an_english_page_embeds_no_messages(client):
    html = client.get("/login", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "data-island-messages" not in html


def test_the_filipino_sign_in_page_embeds_just_its_islands_texts(client):
    html = client.get("/login", headers={"Accept-Language": "fil"}).get_data(as_text=True)
    found = blocks(html)
    assert found and all(lang == "fil" for lang, _messages in found)
    messages: dict[str, str] = {}
    for _lang, block in found:
        assert not set(block) & set(messages), "a text is embedded twice"
        messages.update(block)
    catalogue = filipino()
    assert all(catalogue[text] == value != text for text, value in messages.items())
    assert "Debug code: {code}" not in messages  # the same in Filipino: nothing to send
    # The login island's texts and those of the Forgot Password dialog it loads on demand ...
    assert messages["This field is required"] == catalogue["This field is required"]
    assert messages["Send Reset Code"] == "Ipadala ang Reset Code"
    assert messages["Network error"] == catalogue["Network error"]  # lib/api.ts, used by both
    # ... and nothing from islands this page does not load.
    assert "Create User" not in messages and "Failed to load machine data" not in messages
    assert len(messages) < len(catalogue) / 2


def test_every_filipino_page_gets_its_own_block(client):
    first = client.get("/login", headers={"Accept-Language": "fil"}).get_data(as_text=True)
    second = client.get("/login", headers={"Accept-Language": "fil"}).get_data(as_text=True)
    assert blocks(first) == blocks(second) != []


def test_a_filipino_page_with_several_islands_embeds_each_text_once(client, login):
    login(make_account(role=RoleId.ADMIN))
    html = client.get("/admin", headers={"Accept-Language": "fil"}).get_data(as_text=True)
    found = blocks(html)
    texts = [text for _lang, block in found for text in block]
    assert len(texts) == len(set(texts))
    assert "Create User" in texts and "Request timed out" in texts  # admin-console; api.ts (session)
    assert "Send Reset Code" not in texts


def test_the_block_cannot_end_its_script_element(app):
    with app.test_request_context(headers={"Accept-Language": "fil"}):
        island_i18n.catalogue("fil")  # read once, then inject a hostile translation
        cached = app.extensions["sibol_island_i18n"]["fil"][1]
        cached.messages["Close"] = "</script><script>alert(1)</script>&"
        html = str(island_i18n.island_messages("static_src/islands/admin-console.tsx"))
    assert html.count("</script>") == 1 and "\\u003c/script\\u003e" in html and "\\u0026" in html
    assert json.loads(BLOCK.search(html).group(2))["Close"] == "</script><script>alert(1)</script>&"  # type: ignore[union-attr]


def test_without_the_builds_module_map_every_translation_goes_out():
    catalogue = island_i18n.Catalogue(
        messages={"Close": "Isara", "Back": "Bumalik"},
        files={"Close": frozenset({"a.ts"}), "Back": frozenset({"b.ts"})},
        modules=None,
    )
    assert catalogue.for_entries(("x.ts",)) == {"Close": "Isara", "Back": "Bumalik"}
    mapped = island_i18n.Catalogue(catalogue.messages, catalogue.files, {"x.ts": frozenset({"x.ts", "a.ts"})})
    assert mapped.for_entries(("x.ts",)) == {"Close": "Isara"}


def test_with_the_vite_dev_server_every_translation_goes_out(app, monkeypatch):
    app.config["SIBOL_IGNORE_HOT_FILE"] = False
    monkeypatch.setattr("sibol.web.vite_dev.HOT_FILE", Path(app.config["SIBOL_UPLOAD_DIR"]).parent / "hot")
    Path(app.config["SIBOL_UPLOAD_DIR"]).parent.joinpath("hot").write_text("http://127.0.0.1:5173")
    with app.test_request_context(headers={"Accept-Language": "fil"}):
        html = str(island_i18n.island_messages("static_src/islands/login.ts"))
    everything = {text: value for text, value in filipino().items() if value != text}
    assert json.loads(BLOCK.search(html).group(2)) == everything  # type: ignore[union-attr]
