"""What one feature adds to the app, declared in one shape: `Feature`.

`create_app()` reads the one `FEATURES` list (sibol/__init__.py) and registers each feature's
parts through `install`, so a reader finds everything a feature changes in the app in one place.
A feature's modules never register anything on the app themselves (no `init_app`, no
`app.register_blueprint`, no `app.jinja_env`, no `app.cli`, no `app.wsgi_app`, no blueprint-level
`app_template_*` or `record*`): tests/unit/test_features.py fails when one does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from flask import Blueprint, Flask

Wsgi = Callable[..., Any]


@dataclass(frozen=True)
class Feature:
    """A feature's contributions to the app; every field but `name` may stay empty."""

    name: str
    blueprints: tuple[Blueprint, ...] = ()  # its pages (and their fragments), at the site's root
    api: tuple[Blueprint, ...] = ()  # its /api blueprints, mounted under the parent /api blueprint
    openapi: ModuleType | None = None  # the module whose OPERATIONS describe its /api routes
    # Blueprints that need the app's configuration to be built (e.g. an OAuth provider's URLs).
    configured_blueprints: tuple[Callable[[Flask], Blueprint], ...] = ()
    cli: tuple[Callable[[Flask], None], ...] = ()  # each adds its `flask ...` commands to app.cli
    jinja_globals: Mapping[str, Any] = field(default_factory=dict)  # functions, and a table or two
    jinja_filters: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    signals: tuple[tuple[Any, Callable[..., Any]], ...] = ()  # (blinker signal, receiver)
    tasks: tuple[ModuleType, ...] = ()  # modules that define its queued tasks (sibol/worker.py)
    # WSGI layers put in front of the app: each is called as layer(app, inner) -> the new WSGI app.
    wsgi: tuple[Callable[[Flask, Wsgi], Wsgi], ...] = ()


def install_features(app: Flask, api: Blueprint, features: tuple[Feature, ...]) -> list[ModuleType]:
    """Register every feature's blueprints, CLI commands, template names and signal receivers;
    returns the openapi modules (the caller collects them once /api is complete)."""
    described: list[ModuleType] = []
    for feature in features:
        for bp in feature.blueprints:
            app.register_blueprint(bp)
        for make in feature.configured_blueprints:
            app.register_blueprint(make(app))
        for bp in feature.api:
            api.register_blueprint(bp)
        if feature.openapi is not None:
            described.append(feature.openapi)
        for add_commands in feature.cli:
            add_commands(app)
        app.jinja_env.globals.update(feature.jinja_globals)
        app.jinja_env.filters.update(feature.jinja_filters)
        for signal, receiver in feature.signals:
            # Any sender: a receiver module-level function is kept once, whatever the app count.
            signal.connect(receiver)
    return described


def install_wsgi(app: Flask, features: tuple[Feature, ...]) -> None:
    """Put the features' WSGI layers in front of the app, in the list's order (the last outermost)."""
    for feature in features:
        for layer in feature.wsgi:
            app.wsgi_app = layer(app, app.wsgi_app)  # type: ignore[method-assign]


def task_modules(features: tuple[Feature, ...]) -> tuple[ModuleType, ...]:
    return tuple(module for feature in features for module in feature.tasks)
