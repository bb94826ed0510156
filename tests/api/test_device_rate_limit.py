"""The per-device rate limit counts per device, however a controller spells its key's header.

The `Authorization` scheme is case-insensitive and the spaces around the key mean nothing, so
`Device k`, `device k`, `DEVICE k` and `Device  k` are one device: one count, not four.
"""

from __future__ import annotations

import pytest

from tests.factories_telemetry import keyed_machine

pytestmark = pytest.mark.usefixtures("fresh_identity")

SPELLINGS = ("Device {key}", "device {key}", "DEVICE {key}", "Device  {key}", " dEvIcE\t{key} ")


@pytest.fixture
def app_overrides():
    return {"SIBOL_TELEMETRY_RATE_LIMIT": "3 per minute"}


def spelled(template: str, key: str) -> dict:
    return {"Authorization": template.format(key=key)}


def test_every_spelling_of_the_scheme_is_the_same_device(client):
    for template in SPELLINGS:
        _machine, key = keyed_machine()  # a fresh device each time: this checks the key is read
        res = client.post("/api/telemetry", json={"ph": 7}, headers=spelled(template, key))
        assert res.status_code == 202, (template, res.get_json())


def test_respelling_the_header_does_not_earn_a_fresh_count(client):
    _machine, key = keyed_machine()
    codes = [
        client.post("/api/telemetry", json={"ph": 7}, headers=spelled(t, key)).status_code
        for t in SPELLINGS[:3]
    ]
    assert codes == [202, 202, 202]
    for template in SPELLINGS:
        limited = client.post("/api/telemetry", json={"ph": 7}, headers=spelled(template, key))
        assert limited.status_code == 429, template
        assert int(limited.headers["Retry-After"]) > 0 and limited.is_json
    # Another device keeps its own count.
    _other, other_key = keyed_machine()
    assert (
        client.post("/api/telemetry", json={"ph": 7}, headers=spelled("Device {key}", other_key)).status_code
        == 202
    )


def test_the_command_poll_counts_per_device_over_both_headers(client):
    _machine, key = keyed_machine()
    calls = [
        {"Authorization": f"Device {key}"},
        {"Authorization": f"device  {key}"},
        {"X-Device-Key": f" {key} "},
    ]
    assert [client.get("/api/device/commands", headers=h).status_code for h in calls] == [200, 200, 200]
    for headers in (*calls, {"Authorization": f"DEVICE {key}"}):
        limited = client.get("/api/device/commands", headers=headers)
        assert limited.status_code == 429 and limited.is_json


def test_sibols_device_routes_count_per_device_too(client):
    _machine, key = keyed_machine()
    body = {"weight": 2.5}
    headers = [
        {"X-Device-Key": key},
        {"Authorization": f"device {key}"},
        {"Authorization": f"DEVICE   {key}"},
    ]
    codes = [client.post("/api/s1-esp32/data", json=body, headers=h).status_code for h in headers]
    assert codes == [201, 201, 201]
    assert (
        client.post("/api/s1-esp32/data", json=body, headers={"X-Device-Key": key.upper()}).status_code == 401
    )
    assert (
        client.post("/api/s1-esp32/data", json=body, headers={"Authorization": f"Device {key}"}).status_code
        == 429
    )


def test_a_bearer_token_is_read_in_any_case_too(client, api_headers, staff):
    token = api_headers(staff)["Authorization"].split()[1]
    for template in ("Bearer {t}", "bearer {t}", "BEARER  {t}"):
        res = client.get("/api/me", headers={"Authorization": template.format(t=token)})
        assert res.status_code == 200, template


def test_requests_without_a_known_key_are_refused_and_never_spend_a_devices_count(client):
    _machine, key = keyed_machine()
    for header in ("Device", "Device  ", "Bearer sdk_x"):  # no key at all: one count among them
        res = client.post("/api/telemetry", json={"ph": 7}, headers={"Authorization": header})
        assert res.status_code == 401 and res.is_json, header
    assert (
        client.post("/api/telemetry", json={"ph": 7}, headers={"Authorization": "Devices"}).status_code == 429
    )
    unknown = {"Authorization": "Device sdk_unknown"}
    assert client.post("/api/telemetry", json={"ph": 7}, headers=unknown).status_code == 401
    assert (
        client.post("/api/telemetry", json={"ph": 7}, headers=spelled("device {key}", key)).status_code == 202
    )


def test_one_count_per_key_across_every_device_route(client):
    """A key refused on one device route is refused on every other one, until its window frees."""
    _machine, key = keyed_machine()
    dev = {"Authorization": f"Device {key}"}
    spent = [
        client.post("/api/telemetry", json={"ph": 7}, headers=dev).status_code,
        client.get("/api/device/commands", headers=dev).status_code,
        client.post("/api/s3-sensors/data", json={"phSensor": 7}, headers={"X-Device-Key": key}).status_code,
    ]
    assert spent == [202, 200, 201]
    refused = {
        "POST /api/telemetry": client.post("/api/telemetry", json={"ph": 7}, headers=dev),
        "GET /api/device/commands": client.get("/api/device/commands", headers=dev),
        "POST /api/device/commands/1/result": client.post(
            "/api/device/commands/1/result", json={"status": "executed"}, headers=dev
        ),
        "POST /api/s1-esp32/data": client.post("/api/s1-esp32/data", json={"weight": 2}, headers=dev),
        "POST /api/s3-sensors/data": client.post("/api/s3-sensors/data", json={"phSensor": 7}, headers=dev),
        "POST /api/voltage-current": client.post(
            "/api/voltage-current", json={"voltage": 230, "current": 5}, headers={"X-Device-Key": key}
        ),
        "GET /api/s1-esp32/commands/x": client.get("/api/s1-esp32/commands/x", headers=dev),
        "PUT /api/s1-esp32/command/1/executed": client.put("/api/s1-esp32/command/1/executed", headers=dev),
    }
    for route, res in refused.items():
        assert res.status_code == 429, (route, res.status_code, res.get_json())
        assert res.is_json and int(res.headers["Retry-After"]) > 0, route


def test_mqtt_messages_count_with_the_devices_http_requests(client):
    """The subscriber's intake counts a machine's messages in the same store and the same count."""
    from sibol.telemetry import batch

    machine, key = keyed_machine()
    dev = {"Authorization": f"Device {key}"}
    assert client.get("/api/device/commands", headers=dev).status_code == 200
    assert client.get("/api/device/commands", headers=dev).status_code == 200
    result = batch.store_messages(
        [batch.Incoming(machine.id, b'{"ph": 7}'), batch.Incoming(machine.id, b'{"ph": 7.2}')]
    )
    assert (result.stored, result.refused) == (1, 1)  # one left of three
    assert "rate limit" in result.refusals[0].reason
    assert client.post("/api/telemetry", json={"ph": 7}, headers=dev).status_code == 429


def test_a_device_sending_x_device_key_has_its_idempotency_key_honoured(client):
    """SIBOL's controller sends its key as X-Device-Key; a resend with the same Idempotency-Key
    gets the first answer and stores nothing again (a reading without timestamp would)."""
    machine, key = keyed_machine()
    headers = {"X-Device-Key": key, "Idempotency-Key": "reading-41"}
    first = client.post("/api/s3-sensors/data", json={"phSensor": 7.1}, headers=headers)
    assert first.status_code == 201
    again = client.post("/api/s3-sensors/data", json={"phSensor": 7.1}, headers=headers)
    assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"
    assert again.json == first.json
    other = client.post("/api/s3-sensors/data", json={"phSensor": 6.0}, headers=headers)
    assert other.status_code == 422  # the same key for another body
    # The same device under the Authorization header is the same caller: the same key replays.
    same = client.post(
        "/api/s3-sensors/data",
        json={"phSensor": 7.1},
        headers={"Authorization": f"Device {key}", "Idempotency-Key": "reading-41"},
    )
    assert same.headers.get("Idempotent-Replayed") == "true"
    from sqlalchemy import func, select

    from sibol.extensions import db
    from sibol.models.telemetry import Reading

    assert (
        db.session.scalar(select(func.count()).select_from(Reading).where(Reading.machine_id == machine.id))
        == 1
    )
