"""The broker's client-id rule (client_ids.c beside this file), built into a Mosquitto plugin.

Mosquitto loads plugins as shared libraries, so the rule is compiled from its C source with the
system's compiler and Mosquitto's headers (Debian/Ubuntu: `gcc mosquitto-dev libmosquitto-dev`)
into the broker's folder, once, and again whenever the source is newer than the built file.
Without them the embedded broker does not start: a broker without the rule would let a device
key take over the console's subscriber or another machine's session.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

SOURCE = Path(__file__).with_name("client_ids.c")
LIBRARY = "sibol_client_ids.so"
PACKAGES = "gcc mosquitto-dev libmosquitto-dev"


class PluginUnavailable(FileNotFoundError):
    """The plugin cannot be built here (no C compiler, or no Mosquitto headers)."""


def compiler() -> str:
    found = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not found:
        raise PluginUnavailable(
            f"the broker's client-id check needs a C compiler (Debian/Ubuntu: sudo apt-get install {PACKAGES})"
        )
    return found


def build_plugin(directory: Path) -> Path:
    """The built plugin in `directory`, compiled now if it is missing or older than its source."""
    target = directory / LIBRARY
    if target.exists() and target.stat().st_mtime >= SOURCE.stat().st_mtime:
        return target
    directory.mkdir(parents=True, exist_ok=True)
    draft = directory / f".{LIBRARY}.{os.getpid()}"
    command = [compiler(), "-shared", "-fPIC", "-O2", "-o", str(draft), str(SOURCE)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603 - fixed args
    if done.returncode != 0:
        draft.unlink(missing_ok=True)
        first = next((line for line in done.stderr.splitlines() if line.strip()), "")
        raise PluginUnavailable(
            f"building the broker's client-id check failed ({first.strip()}); "
            f"Debian/Ubuntu: sudo apt-get install {PACKAGES}"
        )
    os.replace(draft, target)
    return target
