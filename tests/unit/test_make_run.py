"""`make run` as a newcomer meets it: the settings of .env (the environment wins), Mosquitto asked
for in one line when SIBOL_MQTT=1 needs it, a quiet stop on Ctrl-C, and the packages mysqlclient's
build needs named before pip tries.

make and the Makefile are the real ones; gunicorn and the queue consumer are stand-ins that wait
to be stopped, and every other prerequisite of `run` is taken as done (`make -o`).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def environment(**extra: str) -> dict[str, str]:
    """This process's environment without what would decide for the Makefile."""
    names = {"HOST", "PORT", "WORKERS", "SIBOL_MQTT", "SIBOL_MQTT_URL", "DATABASE_URL", "FLASK_SKIP_DOTENV"}
    env = {
        k: v for k, v in os.environ.items() if k not in names | {"MAKEFLAGS", "MFLAGS", "MYSQLCLIENT_CFLAGS"}
    }
    return {**env, **extra}


def make_run(
    cwd: Path, *args: str, env: dict[str, str], dry: bool = True
) -> subprocess.CompletedProcess[str]:
    done = ("-o", "build", "-o", "seed", "-o", ".venv/.installed-runtime")
    return subprocess.run(
        ["make", "--no-print-directory", *(["-n"] if dry else []), *done, "run", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def checkout(tmp_path) -> Path:
    """The Makefile and its .env reader in a folder of their own, where a .env may be written."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "Makefile", tmp_path)
    shutil.copy(ROOT / "scripts" / "dotenv-get", tmp_path / "scripts")
    return tmp_path


def test_make_run_takes_host_port_workers_and_mqtt_from_dotenv(checkout):
    (checkout / ".env").write_text(
        "# my console\nHOST=0.0.0.0\nexport PORT='5077'\nWORKERS=3 # a small box\nSIBOL_MQTT=1\n"
    )
    res = make_run(checkout, env=environment(MOSQUITTO="/usr/sbin/mosquitto"))
    assert res.returncode == 0, res.stderr
    assert "--workers 3 --bind 0.0.0.0:5077" in res.stdout
    assert "mqtt broker &" in res.stdout and "mqtt subscribe &" in res.stdout

    # The environment and make's command line win over the file.
    res = make_run(checkout, "WORKERS=5", env=environment(PORT="6000", MOSQUITTO="/usr/sbin/mosquitto"))
    assert "--workers 5 --bind 0.0.0.0:6000" in res.stdout
    # FLASK_SKIP_DOTENV=1 leaves the file out, as the app does.
    res = make_run(checkout, env=environment(FLASK_SKIP_DOTENV="1"))
    assert "--workers 2 --bind 127.0.0.1:5000" in res.stdout and "mqtt" not in res.stdout


def test_sibol_mqtt_without_mosquitto_says_what_to_install_and_stops(checkout):
    (checkout / ".env").write_text("SIBOL_MQTT=1\n")
    res = make_run(checkout, "MOSQUITTO=", env=environment(), dry=False)
    assert res.returncode != 0
    assert res.stdout.splitlines() == [
        "SIBOL_MQTT=1 runs the console's own MQTT broker, Mosquitto, with a small plugin built by a C "
        "compiler, and something is missing: sudo apt-get install mosquitto gcc mosquitto-dev "
        "libmosquitto-dev (or set SIBOL_MQTT_URL to a broker elsewhere, or SIBOL_MQTT=0)"
    ]
    # Mosquitto without its headers (the plugin cannot be built): the same one line.
    res = make_run(
        checkout,
        "MOSQUITTO_PLUGIN_H=/nonexistent.h",
        env=environment(MOSQUITTO="/usr/sbin/mosquitto"),
        dry=False,
    )
    assert res.returncode != 0 and "mosquitto-dev" in res.stdout and "Traceback" not in res.stderr
    assert "Traceback" not in res.stderr
    # A broker elsewhere needs no Mosquitto here.
    res = make_run(checkout, "MOSQUITTO=", env=environment(SIBOL_MQTT_URL="mqtt://broker.example:1883"))
    assert res.returncode == 0, res.stderr
    assert "mqtt subscribe &" in res.stdout and "mqtt broker" not in res.stdout


def test_ctrl_c_stops_make_run_without_error_lines(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    for name in ("huey_consumer", "gunicorn"):
        stand_in = venv / "bin" / name
        stand_in.write_text(f'#!/bin/sh\necho "{name} up"\nexec sleep 60\n')
        stand_in.chmod(0o755)
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "-o", "build", "-o", "seed", "-o", f"{venv}/.installed-runtime"]
        + [f"VENV={venv}", "run"],
        cwd=ROOT,
        env=environment(FLASK_SKIP_DOTENV="1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 20
        up = ""
        while up.count(" up") < 2 and time.monotonic() < deadline:
            up += proc.stdout.readline()
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal sends them all on Ctrl-C
        rest, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    output = up + rest
    assert "SIBOL console on http://127.0.0.1:5000 (Ctrl-C stops it)" in output
    assert output.rstrip().endswith("SIBOL console stopped."), output
    for alarming in ("Terminated", "Interrupt", "Error", "***"):
        assert alarming not in output, output


def test_a_missing_compiler_or_python_headers_stop_make_with_the_packages_to_install(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("")
    (venv / "bin" / "python").symlink_to(sys.executable)
    res = subprocess.run(
        ["make", "--no-print-directory", f"VENV={venv}", f"{venv}/.installed-mysql"],
        cwd=ROOT,
        # The MySQL client headers are there (as MYSQLCLIENT_CFLAGS says); the compiler is not.
        env=environment(
            DATABASE_URL="mysql://root@127.0.0.1/sibol", MYSQLCLIENT_CFLAGS="-I/usr/include/mysql"
        )
        | {"CC": str(tmp_path / "no-such-cc")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert res.returncode != 0
    assert "not found: a C compiler." in res.stdout
    assert (
        "sudo apt-get install default-libmysqlclient-dev pkg-config build-essential python3-dev" in res.stdout
    )
    assert "pip install" not in res.stdout + res.stderr
    assert not (venv / ".installed-mysql").exists()
