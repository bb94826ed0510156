"""The MQTT tests' broker: a real Mosquitto on a free port with its own data directory, set up
by the console's own code, and the app pointed at it."""

from __future__ import annotations

import pytest

from tests.support.mosquitto import CONSOLE_PASSWORD, Mosquitto
from tests.support.servers import free_port


@pytest.fixture
def broker_port() -> int:
    return free_port()


@pytest.fixture
def app_overrides(broker_port) -> dict:
    return {"SIBOL_MQTT_URL": f"mqtt://sibol-console:{CONSOLE_PASSWORD}@127.0.0.1:{broker_port}"}


@pytest.fixture
def broker(app, tmp_path, broker_port):
    b = Mosquitto(tmp_path / "mqtt", broker_port).start()
    yield b
    b.stop()
