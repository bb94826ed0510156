"""`make test` runs pytest and vitest both, and fails at the end when either failed; pytest runs
in two passes (scripts/pytest.sh): the tests in parallel, then those marked `serial` alone.

pytest, npm and node are stand-ins here that record their call and exit as told; make itself, the
Makefile and scripts/pytest.sh are the real ones. The stamps and the build are taken as done
(`make -o`).
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


PARALLEL = "pytest -m pytest -n auto --dist loadfile -m not serial"
SERIAL = "pytest -m pytest -p no:xdist -m serial"


def make_test(
    tmp_path: Path, pytest_exit: int, vitest_exit: int, serial_exit: int | None = None
) -> tuple[subprocess.CompletedProcess, list[str]]:
    """`make test` with stand-ins; pytest's parallel pass exits `pytest_exit`, its serial pass
    `serial_exit` (the same when not given)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    serial = pytest_exit if serial_exit is None else serial_exit
    python = stand_in(
        bin_dir,
        "python",
        f'echo "pytest $*" >> {calls}; echo "pytest output $*"\n'
        f'case "$*" in *"not serial"*) exit {pytest_exit};; *) exit {serial};; esac',
    )
    stand_in(bin_dir, "npm", f'echo "npm $*" >> {calls}; exit {vitest_exit}')
    # A Node new enough that the Makefile keeps the stand-in npm first on PATH.
    stand_in(bin_dir, "node", 'case "$1" in --version) echo v22.0.0;; esac; exit 0')
    # Not the flags of a make this test may itself run under (`make test`).
    # (nor the worker count a developer may have set for it).
    skip = {"SIBOL_TEST_DATABASE_URL", "MAKEFLAGS", "MFLAGS", "PYTEST_WORKERS"}
    env = {k: v for k, v in os.environ.items() if k not in skip}
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    args = ["make", "--no-print-directory", *(f"-o{target}" for target in DONE), "test", f"PY={python}"]
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    return done, calls.read_text().splitlines() if calls.exists() else []


@pytest.mark.parametrize(("pytest_exit", "vitest_exit"), [(1, 0), (0, 1), (2, 1)])
def test_a_red_suite_still_runs_the_other_and_fails_at_the_end(tmp_path, pytest_exit, vitest_exit):
    done, calls = make_test(tmp_path, pytest_exit, vitest_exit)
    assert calls == [PARALLEL, SERIAL, "npm test --silent"]
    assert done.returncode != 0
    assert f"make test failed: pytest exit {pytest_exit}, vitest exit {vitest_exit}" in done.stdout


def test_both_green_is_green(tmp_path):
    done, calls = make_test(tmp_path, 0, 0)
    assert calls == [PARALLEL, SERIAL, "npm test --silent"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert "failed" not in done.stdout


def test_no_test_run_in_the_parallel_pass_fails(tmp_path):
    """pytest's 5 (no test ran) is a failure, not hidden."""
    done, _ = make_test(tmp_path, 5, 0, serial_exit=5)
    assert done.returncode != 0
    assert "make test failed: pytest exit 5, vitest exit 0" in done.stdout


def test_no_serial_test_is_fine_and_that_pass_says_only_so(tmp_path):
    done, _ = make_test(tmp_path, 0, 0, serial_exit=5)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(no selected test is marked serial)" in done.stdout
    assert f"pytest output {SERIAL.removeprefix('pytest ')}" not in done.stdout
    assert f"pytest output {PARALLEL.removeprefix('pytest ')}" in done.stdout


def test_a_red_serial_pass_fails_and_shows_its_output(tmp_path):
    done, _ = make_test(tmp_path, 0, 0, serial_exit=1)
    assert done.returncode != 0
    assert "make test failed: pytest exit 1, vitest exit 0" in done.stdout
    assert f"pytest output {SERIAL.removeprefix('pytest ')}" in done.stdout
