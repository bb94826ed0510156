"""make bench: run every bench/*_bench.py script in turn and print what each reports.

make bench-smoke (`bench/run.py --smoke`): every script of bench/ (all but common.py and this one)
with --smoke, a tiny size that takes seconds, so CI notices a bench that no longer runs. Every
bench script therefore accepts --smoke, and exits non-zero when it cannot measure what it
promises (a tool or a database missing, a request failing): it never skips in silence.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


NOT_BENCHES = {"common.py", "run.py"}


def main() -> int:
    smoke = "--smoke" in sys.argv[1:]
    if smoke:
        scripts = sorted(p for p in HERE.glob("*.py") if p.name not in NOT_BENCHES)
    else:
        scripts = sorted(HERE.glob("*_bench.py"))
    if not scripts:
        print("No benchmark scripts under bench/.")
        return 1
    failed = 0
    rows_file = Path(tempfile.mkstemp(prefix="sibol-bench-", suffix=".jsonl")[1])
    env = {**os.environ, "SIBOL_BENCH_SUMMARY": str(rows_file)}
    for script in scripts:
        print(f"\n=== {script.name} ===", flush=True)
        started = time.monotonic()
        command = [sys.executable, str(script), *(["--smoke"] if smoke else [])]
        result = subprocess.run(command, cwd=HERE.parent, check=False, env=env)
        print(
            f"--- {script.name}: exit {result.returncode} in {time.monotonic() - started:.1f} s", flush=True
        )
        failed += result.returncode != 0
    rows = [json.loads(line) for line in rows_file.read_text().splitlines() if line.strip()]
    rows_file.unlink(missing_ok=True)
    sys.path.insert(0, str(HERE))
    from common import table

    print("\n=== All benchmarks (details above; how to read them: docs/performance.md) ===")
    print(table(["benchmark", "case", "figures"], [[r["benchmark"], r["case"], r["figures"]] for r in rows]))
    if failed:
        print(f"\n{failed} of {len(scripts)} bench scripts failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
