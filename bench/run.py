"""make bench: run every bench/*_bench.py script in turn and print what each reports."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    scripts = sorted(HERE.glob("*_bench.py"))
    if not scripts:
        print("No benchmark scripts under bench/.")
        return 1
    failed = 0
    for script in scripts:
        print(f"\n=== {script.name} ===", flush=True)
        started = time.monotonic()
        result = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False)
        print(f"--- {script.name}: exit {result.returncode} in {time.monotonic() - started:.1f} s", flush=True)
        failed += result.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
