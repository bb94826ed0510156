"""Comments and docstrings say what the code does and why, never which issue or ticket asked for it.

Found anywhere in a file: the word issue, ticket, bug, pull request or PR followed by a number
(with or without "No.", "#" or "-" between), and GH- or gh# with a number. In comments and
docstrings only (and in the prose of Markdown): a bare hash and number, alone or in brackets.
Quoted text and code spans are left out of that last check, as is code: a colour in
a stylesheet, an HTML entity, the number a page shows ("queued as" a hash and a number).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

WORDED = re.compile(
    r"\b(?:issues?|tickets?|bugs?|pull\s+requests?|PR)[\s_-]*(?:no\.?|num(?:ber)?\.?)?\s*[#-]?\s*\d+\b"
    r"|\bGH[-#]\s?\d+\b",
    re.IGNORECASE,
)
BARE = re.compile(r"(?<![\w&#/])#\d+\b")
# Comments of the other languages: // and /* */ (TypeScript, JavaScript, CSS), <!-- --> and {# #}.
COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\w])//[^\n]*|<!--.*?-->|\{#.*?#\}", re.DOTALL)
# Left out of the bare-number check: fenced blocks and code spans, and quoted text.
FENCED = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)
QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”')
SUFFIXES = {".py", ".ts", ".tsx", ".html", ".css", ".js", ".md", ".sh", ".txt", ".cfg", ".toml"}


def python_prose(text: str) -> list[str]:
    """The comments and docstrings of a Python module."""
    found = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        tokens = []
    found += [tok.string for tok in tokens if tok.type == tokenize.COMMENT]
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return found
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                found.append(doc)
    return found


def citations(path: Path) -> list[str]:
    """Every issue citation in one file: worded ones anywhere, bare #N in its comments and docs."""
    text = path.read_text(encoding="utf-8", errors="ignore")
    found = [m.group(0) for m in WORDED.finditer(text)]
    if not BARE.search(text):
        return found  # no bare number anywhere: no need to find the comments (most files)
    if path.suffix == ".py":
        prose = python_prose(text)
    elif path.suffix in {".md", ".txt"}:
        prose = [FENCED.sub("", text)]
    else:
        prose = COMMENTS.findall(text)
    found += [m.group(0) for part in prose for m in BARE.finditer(QUOTED.sub("", part))]
    return found


def scan(root: Path, folders: tuple[str, ...]) -> list[str]:
    out = []
    for folder in folders:
        place = root / folder
        files = [place] if place.is_file() else sorted(place.rglob("*")) if place.is_dir() else []
        for path in files:
            if not path.is_file() or path.suffix not in SUFFIXES:
                continue
            if {"node_modules", "dist", "__pycache__"} & set(path.parts):
                continue
            out += [f"{path.relative_to(root)}: {cite}" for cite in citations(path)]
    return out
