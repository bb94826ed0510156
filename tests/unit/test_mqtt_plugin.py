"""The broker's client-id check is built from its C source into the broker's folder, once; without
a compiler the embedded broker refuses to start with one line naming the packages."""

from __future__ import annotations

import os
import shutil

import pytest

from sibol.telemetry.mqtt.broker import mosquitto_conf
from sibol.telemetry.mqtt.plugin import LIBRARY, PluginUnavailable, build_plugin

needs_compiler = pytest.mark.skipif(
    not (shutil.which("cc") and os.path.exists("/usr/include/mosquitto_broker.h")),
    reason="CI installs gcc and mosquitto-dev",
)


@needs_compiler
def test_the_plugin_is_built_once_and_again_when_its_source_is_newer(tmp_path):
    built = build_plugin(tmp_path)
    assert built == tmp_path / LIBRARY and built.read_bytes().startswith(b"\x7fELF")
    first = built.stat().st_mtime_ns
    assert build_plugin(tmp_path).stat().st_mtime_ns == first  # up to date: not built again
    os.utime(built, (0, 0))  # older than the source
    assert build_plugin(tmp_path).stat().st_mtime_ns != 0
    assert [p.name for p in tmp_path.iterdir()] == [LIBRARY]  # no draft left behind


def test_without_a_working_compiler_it_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("CC", shutil.which("false") or "/bin/false")
    with pytest.raises(PluginUnavailable, match="sudo apt-get install gcc mosquitto-dev libmosquitto-dev"):
        build_plugin(tmp_path)
    assert not (tmp_path / LIBRARY).exists()
    assert list(tmp_path.iterdir()) == []


@needs_compiler
def test_the_configuration_loads_the_check_before_dynamic_security_and_saves_every_change(tmp_path):
    conf = mosquitto_conf(tmp_path, 18830).splitlines()
    plugins = [line for line in conf if line.startswith("plugin ")]
    assert plugins[0] == f"plugin {tmp_path / LIBRARY}"
    assert plugins[1].endswith("mosquitto_dynamic_security.so")
    assert conf.index("plugin_opt_device_prefix sibol-device-") == conf.index(plugins[0]) + 1
    assert "autosave_on_changes true" in conf and "autosave_interval 1" in conf


@needs_compiler
def test_a_timed_save_can_be_chosen_instead(tmp_path):
    conf = mosquitto_conf(tmp_path, 18830, autosave_seconds=30).splitlines()
    assert "autosave_interval 30" in conf and "autosave_on_changes true" not in conf
