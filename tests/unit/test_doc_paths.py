"""Every repository path that the docs, the README, comments and docstrings name exists
(tests/support/house/paths.py), and the check finds a stale one planted on purpose."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.house.paths import Missing, missing, named_paths

ROOT = Path(__file__).resolve().parents[2]


def test_every_named_path_exists():
    assert [f"{m.path} (named in {m.where})" for m in missing(ROOT)] == []


def spelled(text: str) -> str:
    """The planted paths are written with § for / and ¤ for . so that this file names none."""
    return text.replace("§", "/").replace("¤", ".")


def plant(root: Path, text: str, name: str = "docs/x.md") -> list[Missing]:
    (root / "sibol" / "data").mkdir(parents=True)
    (root / "sibol" / "data" / "export.py").write_text("def wants_csv(): ...\n")
    (root / "templates" / "email").mkdir(parents=True)
    (root / "templates" / "email" / "auth_locked.txt").write_text("")
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "architecture.md").write_text("")
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return missing(root)


@pytest.mark.parametrize(
    ("name", "text", "stale"),
    [
        ("docs/x.md", "The export is `sibol§export.py`.\n", "sibol§export.py"),
        ("README.md", "See sibol§data§exports.py for the CSV.\n", "sibol§data§exports.py"),
        (
            "sibol/data/x.py",
            '"""Streams rows (see sibol§data§export.stream_rows)."""\n',
            "sibol§data§export.stream_rows",
        ),
        ("sibol/data/x.py", "# the old folder, sibol§tenancy§\n", "sibol§tenancy§"),
        ("static_src/lib/x.ts", "// (STYLE¤md section 7)\n", "STYLE¤md"),
        ("templates/x.html", "{# templates§email§auth_lock #}\n", "templates§email§auth_lock"),
        ("docs/x.md", "[the layers](layers¤md)\n", "layers¤md"),
    ],
)
def test_a_stale_path_is_found(tmp_path, name, text, stale):
    assert [m.path for m in plant(tmp_path, spelled(text), name)] == [spelled(stale)]


def test_paths_that_exist_patterns_and_topics_pass(tmp_path):
    text = (
        "`sibol/data/export.py`, sibol/data/export.wants_csv, templates/email/auth_locked, "
        "docs/architecture.md, [layers](architecture.md), tests/api/test_<feature>.py, tests/api/test_, "
        "static_src/islands/x.tsx, sibol/v1/42/readings, sibol/<feature>/pages.py, `{{ url_for('x') }}`\n"
    )
    assert plant(tmp_path, text) == []


def test_a_path_word_is_read_whole():
    assert named_paths("(`sibol/web/assets.py`).") == ["sibol/web/assets.py"]
    assert named_paths("see docs/auth.md, then") == ["docs/auth.md"]
