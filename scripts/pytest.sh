#!/usr/bin/env bash
# pytest in two passes: the tests not marked `serial` in parallel (pytest-xdist, PYTEST_WORKERS
# processes: "auto" is one per core, 0 runs them in this one process), then the `serial` ones
# alone (tests/conftest.py says what each worker keeps of its own).
#   scripts/pytest.sh PYTHON 'MARKER EXPRESSION' [pytest arguments...]   ('' selects every test)
# Both passes run; the exit status is the first pass's when it failed, else the second's. pytest's
# 5 (no test ran) fails the first pass like any failure; in the second it only says that no
# selected test is marked `serial` (and that pass's output is then left out).
set -uo pipefail
py=$1
marks=$2
shift 2
workers=${PYTEST_WORKERS:-auto}
if [ -n "$marks" ]; then
  parallel="($marks) and not serial" serial="($marks) and serial"
else
  parallel="not serial" serial="serial"
fi

"$py" -m pytest -n "$workers" --dist loadfile -m "$parallel" "$@"
first=$?
# Its output is shown unless no test ran: a closing "N deselected" line would read as a run
# that tested nothing.
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$py" -m pytest -p no:xdist -m "$serial" "$@" >"$out" 2>&1
second=$?
if [ "$second" = 5 ]; then
  echo "(no selected test is marked serial)"
  second=0
else
  cat "$out"
fi
if [ "$first" != 0 ]; then
  exit "$first"
fi
exit "$second"
