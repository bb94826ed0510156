"""Everything a feature adds to the app is declared in FEATURES (sibol/web/features.py's shape).

Two views of the same rule: the app built with every feature differs from the platform alone
(`create_app(features=())`) by exactly what the declarations name, and no module of a feature
calls the app-registering API itself (a blueprint's `app_template_filter`, `record_once`, a
signal's `connect`, `app.wsgi_app = ...`), which would add something the list does not show.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from flask import Flask

from sibol import FEATURES, create_app
from sibol.web.features import Feature, task_modules

ROOT = Path(__file__).resolve().parents[2]
SIBOL = ROOT / "sibol"
# The platform's folders and loose modules; every other folder under sibol/ is a feature's.
PLATFORM = {"api", "core", "data", "i18n", "identity", "inputs", "jobs", "models", "mqtt", "web", "static"}
PLATFORM |= {"translations", "__pycache__"}
# The calls that add to an app from outside the declared shape.
REGISTERING = {
    "register_blueprint",
    "jinja_env",
    "wsgi_app",
    "record",
    "record_once",
    "app_template_filter",
    "app_template_global",
    "app_template_test",
    "app_context_processor",
    "before_app_request",
    "after_app_request",
    "teardown_app_request",
    "app_errorhandler",
    "app_url_value_preprocessor",
    "add_app_template_filter",
    "add_app_template_global",
    "connect",
    "connect_via",
    "init_app",
}
# A `connect` on these is a network client's, not a signal's.
CLIENTS = {"client", "mqtt", "sqlite3", "conn", "engine", "socket", "sock", "smtp"}


def _app(database_url: str, features: tuple[Feature, ...] | None) -> Flask:
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url}, features=features)


@pytest.fixture(scope="module")
def apps(tmp_path_factory) -> tuple[Flask, Flask]:
    url = f"sqlite:///{tmp_path_factory.mktemp('features') / 'f.db'}"
    return _app(url, ()), _app(url, None)


def _commands(app: Flask) -> set[str]:
    """Every `flask ...` command, a group's own ones as "group sub"."""
    names = set()
    for name, command in app.cli.commands.items():
        names.add(name)
        names |= {f"{name} {sub}" for sub in getattr(command, "commands", {})}
    return names


def _declared_commands() -> set[str]:
    probe = Flask("probe")
    for feature in FEATURES:
        for add in feature.cli:
            add(probe)
    return _commands(probe)


def _names(value) -> object:
    """Functions by their qualified name (each app has its own closures); containers walked."""
    if isinstance(value, dict):
        return {k: _names(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_names(v) for v in value]
    value = getattr(value, "func", value)  # a functools.partial: the function it calls
    return f"{value.__module__}.{value.__qualname__}" if callable(value) else value


def _hooks(app: Flask, attr: str) -> list:
    """The app-wide hooks, but for a declared blueprint's own (Flask-Dance loads its settings)."""
    declared = {type(make(app)) for f in FEATURES for make in f.configured_blueprints}
    return [
        _names(fn)
        for fn in getattr(app, attr).get(None, [])
        if type(getattr(fn, "__self__", None)) not in declared
    ]


def test_blueprints_are_those_declared(apps):
    platform, full = apps
    declared = {bp.name for f in FEATURES for bp in f.blueprints}
    declared |= {f"api.{bp.name}" for f in FEATURES for bp in f.api}
    declared |= {make(full).name for f in FEATURES for make in f.configured_blueprints}
    assert set(full.blueprints) - set(platform.blueprints) == declared


def test_template_names_cli_and_hooks_are_those_declared(apps):
    platform, full = apps
    new_globals = set(full.jinja_env.globals) - set(platform.jinja_env.globals)
    assert new_globals == {name for f in FEATURES for name in f.jinja_globals}
    new_filters = set(full.jinja_env.filters) - set(platform.jinja_env.filters)
    assert new_filters == {name for f in FEATURES for name in f.jinja_filters}
    assert _commands(full) - _commands(platform) == _declared_commands() - _commands(platform)
    # No feature adds an app-wide hook: every request hook, context processor and error handler
    # is the platform's (a blueprint's own hooks run only for its routes and are keyed by it).
    for attr in (
        "before_request_funcs",
        "after_request_funcs",
        "teardown_request_funcs",
        "template_context_processors",
    ):
        assert _hooks(full, attr) == _hooks(platform, attr), attr
    assert _names(full.error_handler_spec[None]) == _names(platform.error_handler_spec[None])


def test_the_wsgi_layers_are_those_declared(apps):
    platform, full = apps
    layers = [layer for f in FEATURES for layer in f.wsgi]
    seen, app = [], full.wsgi_app
    while len(seen) < len(layers):
        seen.append(type(app))
        app = app.inner
    assert seen == list(reversed(layers))
    assert type(app) is type(platform.wsgi_app)


def test_the_worker_takes_every_declared_task_module():
    from sibol import worker

    assert set(task_modules(FEATURES)) <= set(worker.TASK_MODULES)
    assert {m.__name__ for m in task_modules(FEATURES)} >= {"sibol.auth.tasks", "sibol.telemetry.tasks"}


def _feature_modules() -> list[Path]:
    return [
        path
        for folder in sorted(SIBOL.iterdir())
        if folder.is_dir() and folder.name not in PLATFORM
        for path in sorted(folder.rglob("*.py"))
    ]


def _registering_calls(path: Path, root: Path = ROOT) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.FunctionDef) and node.name == "init_app":
            found.append(f"{path.relative_to(root)}:{node.lineno} def init_app")
        if not isinstance(node, ast.Attribute) or node.attr not in REGISTERING:
            continue
        owner = node.value.id if isinstance(node.value, ast.Name) else getattr(node.value, "attr", "")
        if node.attr in ("connect", "connect_via", "init_app") and owner.lower() in CLIENTS:
            continue
        if node.attr in ("record", "record_once") and not owner.lower().endswith(("bp", "blueprint")):
            continue  # a log's record(), not a blueprint's deferred setup
        found.append(f"{path.relative_to(root)}:{node.lineno} {owner}.{node.attr}")
    return found


def test_no_feature_module_registers_on_the_app_itself():
    modules = _feature_modules()
    assert len(modules) > 50  # the walk found the features
    assert [call for path in modules for call in _registering_calls(path)] == []


def test_the_walk_sees_each_kind_of_registration(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from flask_login import user_logged_in\n"
        "bp.record_once(lambda s: None)\n"
        "@bp.app_template_filter('x')\ndef x(v): return v\n"
        "user_logged_in.connect(x)\n"
        "def init_app(app):\n    app.wsgi_app = None\n    app.jinja_env.globals.update(x=x)\n"
        "client.connect('host', 1883)\n"
    )
    calls = [call.split(" ", 1)[1] for call in _registering_calls(sample, tmp_path)]
    assert sorted(calls) == sorted(
        [
            "bp.record_once",
            "bp.app_template_filter",
            "user_logged_in.connect",
            "def init_app",
            "app.wsgi_app",
            "app.jinja_env",
        ]
    )
