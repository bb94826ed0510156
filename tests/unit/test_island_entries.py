"""Island entry files (static_src/islands/) only mount: they import a behaviour from components/
or lib/ and hand it to mountIsland, onIsland or whenReady. Logic and its vitest tests live beside
the components, so an entry stays a few lines a reader can take in at a glance."""

from __future__ import annotations

import re
from pathlib import Path

ISLANDS = Path(__file__).resolve().parents[2] / "static_src" / "islands"
# What an entry may not hold: definitions and loops (a behaviour, not a mount).
LOGIC = re.compile(
    r"^\s*(export\s+)?(async\s+)?(function|class|interface|type|const|let|var)\b|\bfor\s*\(|\bwhile\s*\("
)


def entries() -> list[Path]:
    return sorted(p for p in ISLANDS.glob("*.ts*") if not re.search(r"\.(test|spec|d)\.tsx?$", p.name))


def code_lines(path: Path) -> list[str]:
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    return [line for line in text.splitlines() if line.strip() and not line.strip().startswith("//")]


def test_every_island_entry_only_imports_and_mounts():
    assert entries(), "no island entries found"
    holding_logic = {
        path.name: [line.strip() for line in code_lines(path) if LOGIC.search(line)] for path in entries()
    }
    assert {name: lines for name, lines in holding_logic.items() if lines} == {}


def test_every_island_entry_is_short():
    long = {path.name: len(code_lines(path)) for path in entries() if len(code_lines(path)) > 15}
    assert long == {}
