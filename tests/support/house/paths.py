"""Every path of the repository that a document, comment or docstring names must exist.

Read: README.md, CONTRIBUTING.md, docs/, and the files of sibol/, tests/, static_src/,
templates/, scripts/ and bench/ (their comments and docstrings, and their other text too: a path
in a string is checked the same way). A path is a word that starts with one of the repository's
folders (`sibol/data/export.py`, `templates/admin/`, `docs/auth.md`); a Markdown file named alone
(`telemetry.md`) must exist beside the file that names it, in docs/ or at the root.

Not paths: a word with a placeholder (`<id>`, `{name}`, `*`, `...`), a prefix (`tests/api/test_`),
an MQTT topic (`sibol/v1/...`), a one-letter example name (`x.tsx`), and a path git ignores (a
build output such as `sibol/static/dist/`).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

FOLDERS = ("sibol", "templates", "static_src", "docs", "tests", "bench", "scripts", "migrations")
PATH = re.compile(r"(?<![\w./@-])((?:" + "|".join(FOLDERS) + r")/[\w./-]*[\w/])")
DOC = re.compile(r"(?<![\w./@-])([A-Za-z][\w-]+\.md)\b")
PLACES = (
    "README.md",
    "CONTRIBUTING.md",
    "docs",
    "sibol",
    "tests",
    "static_src",
    "templates",
    "scripts",
    "bench",
)
SUFFIXES = {".md", ".py", ".ts", ".tsx", ".html", ".css", ".js", ".txt", ".cfg", ".toml", ".sh", ".mako"}
SKIP_PARTS = {"node_modules", "dist", "__pycache__", "translations"}


@dataclass(frozen=True)
class Missing:
    path: str  # as named
    where: str  # the file that names it


def files(root: Path, places: tuple[str, ...] = PLACES) -> list[Path]:
    found = []
    for place in places:
        target = root / place
        candidates = [target] if target.is_file() else sorted(target.rglob("*")) if target.is_dir() else []
        found += [
            path
            for path in candidates
            if path.is_file()
            and path.suffix in SUFFIXES
            and not SKIP_PARTS & set(path.relative_to(root).parts)
        ]
    return found


def named_paths(text: str) -> list[str]:
    """The repository paths a text names (placeholders, prefixes and topics left out)."""
    out = []
    for match in PATH.finditer(text):
        ref = match.group(1).rstrip(".")
        if any(mark in ref for mark in "<>{}*") or "..." in ref or ref.startswith("sibol/v1"):
            continue
        if ref.endswith("_") or text[match.end(1) : match.end(1) + 1] in {"<", "{", "*"}:
            continue  # a prefix or a pattern: tests/api/test_<feature>.py
        last = ref.rstrip("/").rsplit("/", 1)[-1]
        if len(last.split(".")[0]) == 1 and "." in last:
            continue  # an example name: islands/x.tsx
        out.append(ref)
    return out


def missing(root: Path, places: tuple[str, ...] = PLACES) -> list[Missing]:
    found: list[Missing] = []
    for path in files(root, places):
        text = path.read_text(encoding="utf-8", errors="ignore")
        where = str(path.relative_to(root))
        for ref in named_paths(text):
            if not exists(root, ref):
                found.append(Missing(ref, where))
        for name in DOC.findall(text):
            if not any((base / name).exists() for base in (path.parent, root, root / "docs")):
                found.append(Missing(name, where))
    ignored = _ignored(root, {m.path for m in found})
    return sorted({m for m in found if m.path not in ignored}, key=lambda m: (m.path, m.where))


def exists(root: Path, ref: str) -> bool:
    """The file or folder, or a module and a name in it (`sibol/commands/service.history`), or a
    template named without its extension (`templates/email/auth_locked`: its .txt and .html)."""
    if (root / ref).exists():
        return True
    module, _dot, name = ref.rpartition(".")
    source = root / f"{module}.py"
    if module and name.isidentifier() and source.is_file():
        return (
            re.search(rf"^(?:def |class |async def )?{re.escape(name)}\b", source.read_text(), re.M)
            is not None
        )
    folder, _slash, stem = ref.rpartition("/")
    return "." not in stem and any((root / folder).glob(f"{stem}.*"))


def _ignored(root: Path, refs: set[str]) -> set[str]:
    """The paths git ignores (build output), of those named."""
    if not refs or not (root / ".git").exists():
        return set()
    out = subprocess.run(
        ["git", "-C", str(root), "check-ignore", "--no-index", *sorted(refs)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return set(out.split())
