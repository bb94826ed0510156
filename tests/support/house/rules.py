"""The house rules over a read package (graph.Package), each a list of findings (empty: kept).

Features (sibol/<feature>/) stand over platform packages. A feature reaches another feature only
through its service (`service.py`, a module that defines no route); the platform reaches no
feature and nothing built on top of it; no loop of imports between files, nor between folders at
any depth (a loop of any length: a -> b -> c -> a); a Python module names only its own folder's
endpoints (`url_for("profile.index")` ties two folders as surely as an import does).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable

from .graph import Package, is_private

# What every feature stands on. The platform imports no feature, and nothing of it imports the
# app factory or the entry modules built on top of it.
PLATFORM = frozenset(
    {"api", "data", "i18n", "identity", "inputs", "jobs", "models", "mqtt", "web"}
    | {"config", "extensions", "errors", "emails"}
)
# The app factory and the entry modules: they wire the features, so they may name any of them.
TOP = frozenset({"sibol", "cli", "seed", "worker"})
NOT_CODE = frozenset({"translations", "static"})
SERVICE = "service"
ROUTE_VERBS = {"route", "get", "post", "put", "patch", "delete"}


def room(name: str) -> str:
    """The folder (or loose module) directly under sibol/ that a module belongs to."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def features(package: Package) -> set[str]:
    return {room(name) for name in package.modules} - PLATFORM - TOP - NOT_CODE


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one node: every loop, of any length."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

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
    return sorted(found)


def file_cycles(package: Package) -> list[str]:
    return [" -> ".join(loop) for loop in strongly_connected(package.graph())]


def folder_loops(package: Package) -> list[str]:
    """Loops between the folders (and loose modules) side by side in one folder, at every depth:
    sibol/'s rooms, identity/'s tenancy/ and its modules, and so on."""
    found = []
    folders = {name for name in package.modules if package.is_package(name)}
    for folder in sorted(folders):
        depth = folder.count(".") + 1
        ties: dict[str, set[str]] = {}
        for edge in package.edges:
            a, b = edge.source.split("."), edge.target.split(".")
            if len(a) <= depth or len(b) <= depth or a[:depth] != b[:depth] or ".".join(a[:depth]) != folder:
                continue  # not two children of this folder (its own __init__ is not a child)
            if a[depth] != b[depth]:
                ties.setdefault(a[depth], set()).add(b[depth])
        for loop in strongly_connected(ties):
            found.append(
                f"{folder}: " + ", ".join(f"{x} -> {y}" for x in loop for y in sorted(ties[x]) if y in loop)
            )
    return found


def upward(package: Package) -> list[str]:
    """The platform importing a feature or the modules built on top of it."""
    above = features(package) | TOP
    return sorted(
        {
            f"{edge.source} -> {edge.target}"
            for edge in package.edges
            if room(edge.source) in PLATFORM and room(edge.target) in above
        }
    )


def route_modules(package: Package) -> set[str]:
    """Modules that define views: a Blueprint, a route decorator (`@bp.get`, `@x.device_route`)
    or add_url_rule. Whatever its name, such a module is pages to every other feature."""
    found = set()
    for name, nodes in package.nodes.items():
        for node in nodes:
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called in {"Blueprint", "add_url_rule"}:
                    found.add(name)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for deco in node.decorator_list:
                    func = deco.func if isinstance(deco, ast.Call) else deco
                    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                    if isinstance(func, ast.Attribute) and (
                        called in ROUTE_VERBS or called.endswith("_route")
                    ):
                        found.add(name)
    return found


def is_service(package: Package, name: str, routes: set[str]) -> bool:
    """A feature's service: sibol/<feature>/.../service.py (or a service/ package), defining no route."""
    return SERVICE in name.split(".")[2:] and name not in routes


def reaches(package: Package) -> list[str]:
    """A feature importing anything of another feature but its service."""
    rooms = features(package)
    routes = route_modules(package)
    return sorted(
        {
            f"{edge.source} -> {edge.target}" + (f".{edge.name}" if edge.name else "")
            for edge in package.edges
            if room(edge.source) in rooms
            and room(edge.target) in rooms
            and room(edge.source) != room(edge.target)
            and not is_service(package, edge.target, routes)
        }
    )


def private_names(package: Package) -> list[str]:
    """A private name (_x) of another module, imported or reached as an attribute."""
    return sorted(
        {f"{e.source}:{e.line} -> {e.target}.{e.name}" for e in package.private if is_private(e.name)}
    )


def unreadable_imports(package: Package) -> list[str]:
    """Dynamic imports whose name is computed: only the app factory and entry modules may."""
    return sorted(f"{name}:{line}" for name, line in package.unreadable if room(name) not in TOP)


def endpoints(package: Package) -> dict[str, str]:
    """Every endpoint the package defines ("profile.index", and "api.profile.x" for /api views)
    -> the room whose module defines it."""
    out: dict[str, str] = {}
    for name, nodes in package.nodes.items():
        blueprints = {}
        for node in nodes:
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", getattr(node.value.func, "attr", "")) == "Blueprint"
                and node.value.args
                and isinstance(node.value.args[0], ast.Constant)
            ):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        blueprints[target.id] = str(node.value.args[0].value)
        for node in nodes:
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for deco in node.decorator_list:
                if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute)):
                    continue
                owner = deco.func.value
                if deco.func.attr in ROUTE_VERBS and isinstance(owner, ast.Name) and owner.id in blueprints:
                    given = [k.value for k in deco.keywords if k.arg == "endpoint"]
                    view = given[0].value if given and isinstance(given[0], ast.Constant) else node.name
                    endpoint = f"{blueprints[owner.id]}.{view}"
                    out[endpoint] = out[f"api.{endpoint}"] = room(name)
    return out


def endpoint_ties(package: Package) -> list[str]:
    """A module naming (in url_for or any string) an endpoint of another folder. The app factory
    and entry modules may; a feature links to another's page through that feature's service."""
    known = endpoints(package)
    found = set()
    for name, nodes in package.nodes.items():
        if room(name) in TOP:
            continue
        # A permission table's keys ("public.manage": roles) are action names, not endpoints.
        keys = {id(key) for node in nodes if isinstance(node, ast.Dict) for key in node.keys if key}
        for node in nodes:
            if id(node) in keys:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in known:
                if known[node.value] != room(name):
                    found.add(f"{name}:{node.lineno} names {node.value} ({known[node.value]})")
    return sorted(found)


def long_modules(package: Package, limit: int = 400) -> dict[str, int]:
    return {
        str(path.relative_to(package.root)): n
        for path in package.modules.values()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > limit
    }


def nested_imports(package: Package) -> list[str]:
    """An import of our own code inside a function hides a dependency (and often a cycle)."""
    spans = {
        name: [n for n in nodes if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        for name, nodes in package.nodes.items()
    }
    nested = set()
    for edge in package.edges:
        if edge.how == "import" and any(_spans(func, edge.line) for func in spans[edge.source]):
            nested.add(f"{edge.source}:{edge.line}")
    return sorted(nested)


def _spans(node: ast.AST, line: int) -> bool:
    end = getattr(node, "end_lineno", None) or 0
    return getattr(node, "lineno", 0) < line <= end


def count(findings: Iterable) -> int:
    return len(list(findings))
