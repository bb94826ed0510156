"""The MQTT tests' broker: a real Mosquitto on a free port with its own data directory, set up
by the console's own code, and the app pointed at it."""

from __future__ import annotations

import pytest

from tests.factories import make_admin
from tests.support.mosquitto import CONSOLE_PASSWORD, Mosquitto, SubscriberProcess
from tests.support.servers import free_port, server_env

try:
    from sibol.telemetry.mqtt.broker import mosquitto_binary, plugin_path

    mosquitto_binary(), plugin_path()
except FileNotFoundError as err:  # pragma: no cover - CI installs Debian's mosquitto
    pytest.skip(str(err), allow_module_level=True)


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


@pytest.fixture
def sub_env(database_url, broker) -> dict[str, str]:
    """A subscriber's environment: this test's database and broker, a limit no test reaches."""
    return server_env(database_url, SIBOL_MQTT_URL=broker.url, SIBOL_TELEMETRY_RATE_LIMIT="100000 per minute")


@pytest.fixture
def subscriber(sub_env, tmp_path):
    s = SubscriberProcess(sub_env, tmp_path / "subscriber.log").start().wait_ready()
    yield s
    s.stop()


@pytest.fixture
def admin_headers(api_headers):
    return api_headers(make_admin())


@pytest.fixture
def issue(client, admin_headers):
    """issue(machine) -> the raw device key, issued through the API as staff would."""

    def do(machine) -> str:
        res = client.post(f"/api/machines/{machine.id}/device-key", headers=admin_headers)
        assert res.status_code == 201, res.get_data(as_text=True)
        return res.json["deviceKey"]

    return do
