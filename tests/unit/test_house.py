"""The shape of the code (docs/architecture.md): features over platform packages, no import
cycles, nothing imported upward, no module over 400 lines, comments about the code.

Imports are read with `ast` at any depth, so an import inside a function still counts; imports
under `if TYPE_CHECKING:` do not (they never run).
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "sibol"

# What every feature stands on. The platform imports no feature, and nothing of it imports the
# app factory or the entry modules built on top of it.
PLATFORM = {
    "api",
    "data",
    "i18n",
    "identity",
    "inputs",
    "jobs",
    "models",
    "web",
    "config",
    "extensions",
    "errors",
    "emails",
}
TOP = {"sibol", "cli", "seed", "worker"}
# A feature may use another feature's service layer; these are its surface to people instead.
FEATURE_SURFACE = {"pages", "api", "views", "client_api"}
MAX_LINES = 400
MAX_LOOSE = 8


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skip.update(id(sub) for sub in ast.walk(inner))
    return skip


@cache
def imports() -> dict[str, set[tuple[str, str]]]:
    """module -> {(imported module, imported name or "")}."""
    known = modules()
    graph: dict[str, set[tuple[str, str]]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        skip = _type_checking_nodes(tree)
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found: set[tuple[str, str]] = set()

        def resolve(
            target: str, imported: str, found: set[tuple[str, str]] = found, name: str = name
        ) -> None:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add((target, imported))

        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "sibol":
                        resolve(alias.name, "")
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - node.level + 1]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                if prefix.split(".")[0] != "sibol":
                    continue
                for alias in node.names:
                    candidate = f"{prefix}.{alias.name}"
                    if candidate in known:
                        resolve(candidate, "")
                    else:
                        resolve(prefix, alias.name)
        graph[name] = found
    return graph


def room(name: str) -> str:
    """The folder (or loose module) directly under sibol/ that a module belongs to."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "sibol"


def features() -> set[str]:
    rooms = {room(name) for name in modules()}
    return rooms - PLATFORM - TOP - {"translations", "static"}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_house_check_sees_the_whole_package():
    assert "sibol.identity.tenancy.scope" in modules()
    assert {"auth", "telemetry", "household"} <= features()
    assert ("sibol.jobs.queue", "huey") in imports()["sibol.auth.tasks"]


def test_no_import_cycles_between_modules():
    graph = {name: {target for target, _ in targets} for name, targets in imports().items()}
    assert strongly_connected(graph) == []


def test_no_two_rooms_import_each_other():
    ties = {(room(a), room(b)) for a, targets in imports().items() for b, _ in targets if room(a) != room(b)}
    ties = {(a, b) for a, b in ties if "sibol" not in (a, b)}
    assert sorted((a, b) for a, b in ties if a < b and (b, a) in ties) == []


def test_the_platform_imports_no_feature_and_nothing_above_it():
    upward = sorted(
        f"{name} -> {target}"
        for name, targets in imports().items()
        if room(name) in PLATFORM
        for target, _ in targets
        if room(target) in features() or room(target) in TOP
    )
    assert upward == []


def test_features_use_each_others_services_not_their_pages_or_private_names():
    crossings = sorted(
        f"{name} -> {target}{'.' + imported if imported else ''}"
        for name, targets in imports().items()
        if room(name) in features()
        for target, imported in targets
        if room(target) in features()
        and room(target) != room(name)
        and (target.rpartition(".")[2] in FEATURE_SURFACE or imported.startswith("_"))
    )
    assert crossings == []


def test_no_module_over_400_lines():
    long = {
        str(path.relative_to(ROOT)): n
        for path in modules().values()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_few_loose_modules_beside_the_packages():
    loose = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(loose) <= MAX_LOOSE, loose


@pytest.mark.parametrize("folder", ["sibol", "templates", "static_src", "tests"])
def test_comments_speak_of_the_code_not_of_issues(folder):
    cite = re.compile(r"\bissue\s+#?\d+", re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in sorted((ROOT / folder).rglob("*"))
        if path.is_file()
        and path.suffix in {".py", ".ts", ".tsx", ".html", ".css", ".js"}
        and "node_modules" not in path.parts
        for match in cite.finditer(path.read_text(encoding="utf-8", errors="ignore"))
    ]
    assert found == []


def test_sibol_imports_sit_at_the_top_of_each_module():
    """An import of our own code inside a function hides a dependency (and often a cycle)."""
    nested = []
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                own = (
                    isinstance(node, ast.ImportFrom)
                    and (node.level or (node.module or "").startswith("sibol"))
                ) or (
                    isinstance(node, ast.Import) and any(a.name.split(".")[0] == "sibol" for a in node.names)
                )
                if own:
                    nested.append(f"{name}:{node.lineno}")
    assert sorted(set(nested)) == []
