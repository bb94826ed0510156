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
