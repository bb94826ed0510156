"""Which module of the package uses which: the import graph the house rules are checked on.

An edge is counted for every way one module reaches another:

- `import` and `from ... import`, at any depth (inside a function too), relative or absolute;
- `importlib.import_module("sibol.x")` and `__import__("sibol.x")` with a literal name;
- a string that names a module, as import strings do (`"sibol.x.y"`, `"sibol.x.y:attr"`, werkzeug's
  `import_string`, a WSGI or queue target), except a logger's name;
- an attribute reached through an imported module (`telemetry.keys.x` after `from sibol import
  telemetry`).

Imports under `if TYPE_CHECKING:` are left out (they never run). A dynamic import whose name is
not a literal cannot be read: it is recorded in `unreadable`, so a rule can allow it only where the
app is wired. A private name (`_x`) of another module, imported or reached as an attribute, is
recorded in `private`.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

DYNAMIC = {"import_module", "__import__", "import_string"}


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    name: str  # the name taken from the target ("" for the module itself)
    line: int
    how: str  # import, dynamic, string, attribute


@dataclass
class Package:
    """The modules of one package under `root` and everything read from them."""

    root: Path
    top: str = "sibol"
    modules: dict[str, Path] = field(default_factory=dict)
    trees: dict[str, ast.Module] = field(default_factory=dict)
    nodes: dict[str, list[ast.AST]] = field(default_factory=dict)  # every node of each module, walked once
    edges: list[Edge] = field(default_factory=list)
    private: list[Edge] = field(default_factory=list)
    unreadable: list[tuple[str, int]] = field(default_factory=list)

    @classmethod
    def read(cls, root: Path, top: str = "sibol") -> Package:
        package = cls(root, top)
        for path in sorted((root / top).rglob("*.py")):
            package.modules[module_name(path, root)] = path
        for name, path in package.modules.items():
            package.trees[name] = ast.parse(path.read_text(encoding="utf-8"), str(path))
            package.nodes[name] = list(ast.walk(package.trees[name]))
        for name in package.modules:
            _Reader(package, name).run()
        return package

    def is_package(self, name: str) -> bool:
        return self.modules[name].name == "__init__.py"

    def known(self, dotted: str) -> str | None:
        """The longest module named by a dotted path (sibol.a.b.attr -> sibol.a.b), or None."""
        while dotted and dotted not in self.modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    def graph(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {name: set() for name in self.modules}
        for edge in self.edges:
            out[edge.source].add(edge.target)
        return out


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def type_checking_nodes(nodes: list[ast.AST]) -> set[int]:
    skip: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skip.update(id(sub) for sub in ast.walk(inner))
    return skip


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__")) and name != "_"


class _Reader:
    def __init__(self, package: Package, name: str):
        self.package = package
        self.name = name
        self.tree = package.trees[name]
        parts = name.split(".")
        self.here = parts if package.is_package(name) else parts[:-1]
        self.aliases: dict[str, str] = {}  # local name -> the module it is bound to
        self.string = re.compile(rf"^{re.escape(package.top)}(?:\.\w+)+(?::\w+)?$")

    def add(self, dotted: str, name: str, line: int, how: str) -> None:
        target = self.package.known(dotted)
        if target is None or target == self.name:
            return
        edge = Edge(self.name, target, name, line, how)
        self.package.edges.append(edge)
        if is_private(name) or (dotted != target and is_private(dotted[len(target) + 1 :].split(".")[0])):
            self.package.private.append(edge)

    def absolute(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = self.here[: len(self.here) - node.level + 1]
        return ".".join(base + ([node.module] if node.module else []))

    def run(self) -> None:
        skip = type_checking_nodes(self.package.nodes[self.name])
        top = self.package.top
        nodes = self.package.nodes[self.name]
        loggers = {
            id(node.args[0])
            for node in nodes
            if isinstance(node, ast.Call)
            and node.args
            and (getattr(node.func, "attr", None) or getattr(node.func, "id", None)) == "getLogger"
        }
        for node in nodes:
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == top:
                        self.add(alias.name, "", node.lineno, "import")
                        bound = alias.name if alias.asname else alias.name.split(".")[0]
                        self.aliases[alias.asname or alias.name.split(".")[0]] = bound
            elif isinstance(node, ast.ImportFrom):
                prefix = self.absolute(node)
                if prefix.split(".")[0] != top:
                    continue
                for alias in node.names:
                    candidate = f"{prefix}.{alias.name}"
                    if candidate in self.package.modules:
                        self.add(candidate, "", node.lineno, "import")
                        self.aliases[alias.asname or alias.name] = candidate
                    else:
                        self.add(prefix, alias.name, node.lineno, "import")
            elif isinstance(node, ast.Call) and _called(node) in DYNAMIC:
                arg = node.args[0] if node.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    dotted = arg.value.replace(":", ".")
                    if dotted.startswith("."):
                        dotted = ".".join(self.here) + dotted
                    self.add(dotted, "", node.lineno, "dynamic")
                else:
                    self.package.unreadable.append((self.name, node.lineno))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in loggers:
                if self.string.match(node.value):
                    self.named(node.value, node.lineno)
        self.attributes(skip)

    def named(self, text: str, line: int) -> None:
        """A string naming a module ("sibol.x.y"), or a name in one ("sibol.x.y:attr",
        "sibol.x.y.attr"); a file or host name that merely starts the same way ("sibol.sqlite3")
        names nothing."""
        module, _colon, attr = text.partition(":")
        target = self.package.known(module)
        if target is None or (attr and target != module):
            return
        if target == module or (target != self.package.top and module.count(".") == target.count(".") + 1):
            self.add(text.replace(":", "."), attr or module[len(target) + 1 :], line, "string")

    def attributes(self, skip: set[int]) -> None:
        """`alias.sub.name` where alias is a module of ours: an edge to the deepest module named,
        and a private name when the first name after it starts with an underscore."""
        nodes = self.package.nodes[self.name]
        inner_parts = {id(node.value) for node in nodes if isinstance(node, ast.Attribute)}
        for node in nodes:
            if id(node) in skip or id(node) in inner_parts or not isinstance(node, ast.Attribute):
                continue
            chain: list[str] = []
            inner: ast.expr = node
            while isinstance(inner, ast.Attribute):
                chain.insert(0, inner.attr)
                inner = inner.value
            if not isinstance(inner, ast.Name) or inner.id not in self.aliases:
                continue
            dotted = ".".join([self.aliases[inner.id], *chain])
            target = self.package.known(dotted)
            if target is None or target == self.name:
                continue
            rest = dotted[len(target) + 1 :]
            if rest:  # a name of the module, not a submodule path being spelled out further
                self.add(dotted, rest.split(".")[0], node.lineno, "attribute")
            elif target != self.aliases[inner.id]:
                self.add(dotted, "", node.lineno, "attribute")


def _called(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None
