"""The house checker itself (tests/support/house/): each rule finds a deliberately bad snippet
planted in a small package of its own, so a rule that stops seeing cannot pass unnoticed."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.support.house import rules
from tests.support.house.citations import citations
from tests.support.house.graph import Package


def plant(root: Path, files: dict[str, str]) -> Package:
    """A package `sibol` under root with these modules (paths relative to sibol/)."""
    for name, text in files.items():
        path = root / "sibol" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(root).parents:
            init = root / parent / "__init__.py"
            if parent != Path(".") and not init.exists():
                init.write_text("")
        path.write_text(textwrap.dedent(text))
    return Package.read(root)


def test_a_loop_of_three_folders_is_found(tmp_path):
    house = plant(
        tmp_path,
        {
            "web/a.py": "from ..data import b\n",
            "data/b.py": "from ..identity import c\n",
            "identity/c.py": "from ..web import d\n",
            "web/d.py": "",
        },
    )
    assert rules.file_cycles(house) == []  # no file imports itself back
    assert rules.folder_loops(house) == ["sibol: data -> identity, identity -> web, web -> data"]


def test_a_loop_inside_a_folder_is_found_too(tmp_path):
    house = plant(tmp_path, {"auth/x/one.py": "from .. import two\n", "auth/two.py": "from .x import one\n"})
    assert rules.folder_loops(house) == ["sibol.auth: two -> x, x -> two"]


def test_a_cycle_of_files_of_any_length_is_found(tmp_path):
    house = plant(
        tmp_path,
        {
            "web/a.py": "from . import b\n",
            "web/b.py": "from . import c\n",
            "web/c.py": "import sibol.web.a\n",
        },
    )
    assert rules.file_cycles(house) == ["sibol.web.a -> sibol.web.b -> sibol.web.c"]


@pytest.mark.parametrize(
    "code",
    [
        "import importlib\nimportlib.import_module('sibol.auth.service')\n",
        "from importlib import import_module\nimport_module('sibol.auth.service')\n",
        "__import__('sibol.auth.service')\n",
        "from werkzeug.utils import import_string\nimport_string('sibol.auth.service:login')\n",
        "TARGET = 'sibol.auth.service:login'\n",
        "TARGET = 'sibol.auth.service'\n",
        "def f():\n    from ..auth import service\n",
        "import sibol\nsibol.auth.service.login()\n",
    ],
)
def test_the_platform_reaching_a_feature_is_found_however_it_imports(tmp_path, code):
    house = plant(tmp_path, {"mqtt/x.py": code, "auth/service.py": "def login(): ...\n"})
    assert "sibol.mqtt.x -> sibol.auth.service" in rules.upward(house)
    assert {line.split(" -> ")[1] for line in rules.upward(house)} <= {"sibol.auth.service", "sibol"}


def test_a_host_or_file_name_that_starts_like_a_module_is_no_import(tmp_path):
    house = plant(
        tmp_path, {"web/x.py": "HOST = 'sibol.local'\nDB = 'sibol.sqlite3'\n", "auth/service.py": ""}
    )
    assert [e for e in house.edges if e.source == "sibol.web.x"] == []


def test_a_computed_dynamic_import_is_allowed_only_at_the_top(tmp_path):
    code = "import importlib\ndef load(name):\n    return importlib.import_module(f'sibol.{name}.pages')\n"
    house = plant(tmp_path, {"web/x.py": code, "seed.py": code})
    assert rules.unreadable_imports(house) == ["sibol.web.x:3"]


def test_a_type_checking_import_is_no_tie(tmp_path):
    code = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..auth import service\n"
    house = plant(tmp_path, {"web/x.py": code, "auth/service.py": ""})
    assert rules.upward(house) == []


@pytest.mark.parametrize(
    "code",
    [
        "from ..household import pages\n",
        "from ..household.queries import rows\n",
        "from ..household import views_of_members\n",
        "from .. import household\nhousehold.queries.rows()\n",
        "import importlib\nimportlib.import_module('sibol.household.queries')\n",
    ],
)
def test_a_feature_reaching_past_another_features_service_is_found(tmp_path, code):
    house = plant(
        tmp_path,
        {
            "admin/x.py": code,
            "household/service.py": "def rows(): ...\n",
            "household/queries.py": "def rows(): ...\n",
            "household/pages.py": "",
            "household/views_of_members.py": "",
        },
    )
    assert rules.reaches(house) != []
    assert all(line.startswith("sibol.admin.x -> sibol.household") for line in rules.reaches(house))


def test_a_service_that_defines_routes_is_pages_under_another_name(tmp_path):
    house = plant(
        tmp_path,
        {
            "admin/x.py": "from ..household.service import rows\n",
            "household/service.py": "bp = Blueprint('household', __name__)\n@bp.get('/h')\ndef rows(): ...\n",
        },
    )
    assert "sibol.household.service" in rules.route_modules(house)
    assert rules.reaches(house) == ["sibol.admin.x -> sibol.household.service.rows"]


def test_a_feature_using_another_features_service_passes(tmp_path):
    house = plant(
        tmp_path, {"admin/x.py": "from ..household.service import rows\n", "household/service.py": ""}
    )
    assert rules.reaches(house) == []


@pytest.mark.parametrize(
    "code",
    [
        "from .b import _hidden\n",
        "from . import b\nb._hidden()\n",
        "import sibol.web.b\nsibol.web.b._hidden()\n",
    ],
)
def test_a_private_name_of_another_module_is_found(tmp_path, code):
    house = plant(tmp_path, {"web/a.py": code, "web/b.py": "def _hidden(): ...\n"})
    assert [line.split(" -> ")[1] for line in rules.private_names(house)] == ["sibol.web.b._hidden"]


def test_dunder_names_and_gettext_are_not_private(tmp_path):
    house = plant(
        tmp_path, {"web/a.py": "from . import b\nprint(b.__name__, b._)\n", "web/b.py": "_ = str\n"}
    )
    assert rules.private_names(house) == []


PROFILE = "bp = Blueprint('profile', __name__)\n@bp.get('/profile')\ndef index(): ...\n"


@pytest.mark.parametrize(
    ("module", "code"),
    [
        ("web/x.py", "url_for('profile.index')\n"),
        ("web/x.py", "HOMES = {4: ('profile.index', 1)}\n"),
        ("auth/x.py", "redirect(url_for('profile.index', _anchor='sessions'))\n"),
        ("auth/x.py", "url_for('api.profile.index')\n"),
    ],
)
def test_an_endpoint_of_another_folder_named_in_code_is_found(tmp_path, module, code):
    house = plant(tmp_path, {module: code, "profile/pages.py": PROFILE})
    assert len(rules.endpoint_ties(house)) == 1


def test_a_folder_naming_its_own_endpoints_and_permission_tables_pass(tmp_path):
    house = plant(
        tmp_path,
        {
            "profile/service.py": "def profile_url():\n    return url_for('profile.index')\n",
            "identity/permissions.py": "ACTIONS = {'profile.index': {1, 2}}\n",
            "profile/pages.py": PROFILE,
        },
    )
    assert rules.endpoint_ties(house) == []


def test_a_long_module_is_found(tmp_path):
    house = plant(tmp_path, {"web/long.py": "x = 1\n" * 401, "web/short.py": "x = 1\n" * 400})
    assert rules.long_modules(house) == {str(Path("sibol", "web", "long.py")): 401}


def test_an_import_inside_a_function_is_found(tmp_path):
    house = plant(tmp_path, {"web/a.py": "def f():\n    from . import b\n", "web/b.py": ""})
    assert rules.nested_imports(house) == ["sibol.web.a:2"]


NUMBER = "3" + "5"  # spelled apart, so this file cites nothing itself
CITATIONS = [
    f"issue {NUMBER}",
    f"Issue #{NUMBER}",
    f"issue-{NUMBER}",
    f"Issue No. {NUMBER}",
    f"ticket {NUMBER}",
    f"GH-{NUMBER}",
    f"(#{NUMBER})",
    f"#{NUMBER}",
]


@pytest.mark.parametrize("spelling", CITATIONS)
@pytest.mark.parametrize(
    ("suffix", "template"),
    [
        (".py", "# Keeps the order ({spelling}).\nx = 1\n"),
        (".py", 'def f():\n    """Keeps the order, {spelling}."""\n'),
        (".ts", "// Keeps the order, {spelling}.\nconst x = 1;\n"),
        (".css", "/* Keeps the order, {spelling}. */\na {{ color: #333; }}\n"),
        (".html", "{{# Keeps the order, {spelling}. #}}\n<p>&#39;</p>\n"),
        (".md", "Keeps the order, {spelling}.\n"),
    ],
)
def test_every_spelling_of_an_issue_number_is_found(tmp_path, spelling, suffix, template):
    path = tmp_path / f"planted{suffix}"
    path.write_text(template.format(spelling=spelling))
    assert citations(path) != []


@pytest.mark.parametrize(
    ("suffix", "text"),
    [
        (".css", "a { color: #333; background: #000000; }\n"),
        (".html", "<p>&#39;quoted&#39;</p><a href='/x#35'>x</a>\n"),
        (".py", 'MESSAGE = "queued as #7"\n# The flash reads "queued as #7."\n'),
        (".md", "```\n18:18:05 #1 queued\n```\nThe history shows `#1`.\n"),
    ],
)
def test_colours_entities_and_quoted_numbers_are_no_citation(tmp_path, suffix, text):
    path = tmp_path / f"fine{suffix}"
    path.write_text(text)
    assert citations(path) == []
