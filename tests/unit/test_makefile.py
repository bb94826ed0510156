"""`make test` runs pytest and vitest both, and fails at the end when either failed.

pytest, npm and node are stand-ins here that record their call and exit as told; make itself and
the Makefile are the real ones. The stamps and the build are taken as done (`make -o`).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DONE = (".venv/pyvenv.cfg", ".venv/.installed-runtime", ".venv/.installed-dev", "build")


def stand_in(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def make_test(
    tmp_path: Path, pytest_exit: int, vitest_exit: int
) -> tuple[subprocess.CompletedProcess, list[str]]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    python = stand_in(bin_dir, "python", f'echo "pytest $*" >> {calls}; exit {pytest_exit}')
    stand_in(bin_dir, "npm", f'echo "npm $*" >> {calls}; exit {vitest_exit}')
    # A Node new enough that the Makefile keeps the stand-in npm first on PATH.
    stand_in(bin_dir, "node", 'case "$1" in --version) echo v22.0.0;; esac; exit 0')
    # Not the flags of a make this test may itself run under (`make test`).
    env = {k: v for k, v in os.environ.items() if k not in {"SIBOL_TEST_DATABASE_URL", "MAKEFLAGS", "MFLAGS"}}
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    args = ["make", "--no-print-directory", *(f"-o{target}" for target in DONE), "test", f"PY={python}"]
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    return done, calls.read_text().splitlines() if calls.exists() else []


@pytest.mark.parametrize(("pytest_exit", "vitest_exit"), [(1, 0), (0, 1), (2, 1)])
def test_a_red_suite_still_runs_the_other_and_fails_at_the_end(tmp_path, pytest_exit, vitest_exit):
    done, calls = make_test(tmp_path, pytest_exit, vitest_exit)
    assert calls == ["pytest -m pytest", "npm test --silent"]
    assert done.returncode != 0
    assert f"make test failed: pytest exit {pytest_exit}, vitest exit {vitest_exit}" in done.stdout


def test_both_green_is_green(tmp_path):
    done, calls = make_test(tmp_path, 0, 0)
    assert calls == ["pytest -m pytest", "npm test --silent"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert "failed" not in done.stdout
