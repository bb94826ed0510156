"""Commands over HTTP: a person queues one, the device takes it and answers; expiry, cancel,
refusals, permissions and tenancy; a device never sees or changes another machine's commands."""

from __future__ import annotations

from datetime import datetime

import pytest

from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.commands import Command
from sibol.telemetry.cli import tick
from tests.factories import make_account
from tests.factories_commands import command_count, foreign_machine, make_overdue
from tests.factories_telemetry import device, keyed_machine

pytestmark = pytest.mark.usefixtures("fresh_identity")


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.removesuffix("Z"))


@pytest.fixture
def keyed():
    return keyed_machine("Digester Uno")


def send(client, headers, machine_id, **body):
    return client.post(f"/api/machines/{machine_id}/commands", json=body, headers=headers)


def test_the_whole_life_of_a_command_over_http(client, api_headers, keyed):
    machine, key = keyed
    operator = make_account(role=RoleId.OPERATOR, first_name="Olivia", last_name="Opera")
    headers = api_headers(operator)

    res = send(client, headers, machine.id, command="stir", value=10)
    assert res.status_code == 201, res.json
    body = res.json
    assert list(body)[:6] == ["id", "command", "value", "status", "createdAt", "expiresAt"]
    assert (body["command"], body["value"], body["status"]) == ("stir", 10, "queued")
    assert (when(body["expiresAt"]) - when(body["createdAt"])).total_seconds() == 600

    again = send(client, headers, machine.id, command="stir", value=20)
    assert again.status_code == 409
    assert f"#{body['id']}" in again.json["message"] and again.json["pendingId"] == body["id"]
    other_kind = send(client, headers, machine.id, command="feed_pump", value="on")
    assert other_kind.status_code == 201  # the rule is per kind

    polled = client.get("/api/device/commands", headers=device(key))
    assert polled.status_code == 200
    assert polled.json == {
        "commands": [
            {"id": body["id"], "command": "stir", "value": 10, "createdAt": body["createdAt"]},
            {
                "id": other_kind.json["id"],
                "command": "feed_pump",
                "value": "on",
                "createdAt": other_kind.json["createdAt"],
            },
        ]
    }  # oldest first
    assert client.get("/api/device/commands", headers=device(key)).json == {"commands": []}
    still = send(client, headers, machine.id, command="stir", value=5)
    assert still.status_code == 409 and "delivered" in still.json["message"]

    done = client.post(
        f"/api/device/commands/{body['id']}/result",
        json={"status": "executed", "detail": "stirred"},
        headers=device(key),
    )
    assert done.status_code == 200 and done.json["status"] == "executed"
    second = client.post(
        f"/api/device/commands/{body['id']}/result", json={"status": "failed"}, headers=device(key)
    )
    assert second.status_code == 409
    failed = client.post(
        f"/api/device/commands/{other_kind.json['id']}/result",
        json={"status": "failed", "detail": "pump jammed"},
        headers=device(key),
    )
    assert failed.status_code == 200

    listed = client.get(f"/api/machines/{machine.id}/commands", headers=headers).json
    assert listed["total"] == 2 and [c["id"] for c in listed["data"]] == [other_kind.json["id"], body["id"]]
    stir = listed["data"][1]
    assert stir["status"] == "executed" and stir["createdBy"]["name"] == "Olivia Opera"
    assert [e["status"] for e in stir["events"]] == ["executed", "delivered", "queued"]  # newest first
    assert stir["events"][0]["detail"] == "stirred" and stir["events"][2]["by"] == "Olivia Opera"
    assert listed["data"][0]["status"] == "failed" and listed["data"][0]["detail"] == "pump jammed"
    assert (
        send(client, headers, machine.id, command="stir", value=5).status_code == 201
    )  # nothing pending now


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"command": "dance"}, "command"),
        ({"value": 3}, "command"),
        ({"command": 7}, "command"),
        ({"command": "stir", "value": 0}, "value"),
        ({"command": "stir", "value": 61}, "value"),
        ({"command": "stir", "value": 2.5}, "value"),
        ({"command": "stir", "value": "ten"}, "value"),
        ({"command": "stir", "value": True}, "value"),
        ({"command": "stir"}, "value"),
        ({"command": "feed_pump", "value": "maybe"}, "value"),
        ({"command": "generator", "value": 1}, "value"),
        ({"command": "set_interval", "value": 9}, "value"),
        ({"command": "set_interval", "value": 3601}, "value"),
        ({"command": "reboot", "value": 5}, "value"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_stores_nothing(client, staff_headers, keyed, body, field):
    machine, _key = keyed
    res = send(client, staff_headers, machine.id, **body)
    assert res.status_code == 400, res.json
    assert res.json["field"] == field and res.json["message"]
    assert command_count() == 0


def test_generator_stop_and_reboot_are_queued_over_the_api(client, staff_headers, keyed):
    """The pages ask a person first; the API takes the command as the issue's contract shows it."""
    machine, _key = keyed
    stop = send(client, staff_headers, machine.id, command="generator", value="stop")
    reboot = send(client, staff_headers, machine.id, command="reboot")
    assert stop.status_code == 201 and reboot.status_code == 201
    assert reboot.json["value"] is None
    interval = send(client, staff_headers, machine.id, command="set_interval", value="30")
    assert interval.status_code == 201 and interval.json["value"] == 30


def test_not_json_and_no_body_are_refused(client, staff_headers, keyed):
    machine, _key = keyed
    assert client.post(
        f"/api/machines/{machine.id}/commands", data="x", headers=staff_headers
    ).status_code in (
        400,
        415,
    )
    assert client.post(f"/api/machines/{machine.id}/commands", headers=staff_headers).status_code == 400
    assert command_count() == 0


def test_cancel_while_queued_then_409(client, staff_headers, keyed):
    machine, key = keyed
    first = send(client, staff_headers, machine.id, command="stir", value=3).json
    res = client.post(f"/api/machines/{machine.id}/commands/{first['id']}/cancel", headers=staff_headers)
    assert res.status_code == 200 and res.json["status"] == "cancelled"
    assert [e["status"] for e in res.json["events"]] == ["cancelled", "queued"]
    again = client.post(f"/api/machines/{machine.id}/commands/{first['id']}/cancel", headers=staff_headers)
    assert again.status_code == 409
    assert client.get("/api/device/commands", headers=device(key)).json == {"commands": []}
    late = client.post(
        f"/api/device/commands/{first['id']}/result", json={"status": "executed"}, headers=device(key)
    )
    assert late.status_code == 409

    second = send(client, staff_headers, machine.id, command="stir", value=4).json  # the kind is free again
    client.get("/api/device/commands", headers=device(key))
    delivered = client.post(
        f"/api/machines/{machine.id}/commands/{second['id']}/cancel", headers=staff_headers
    )
    assert delivered.status_code == 409 and "delivered" in delivered.json["message"]
    unknown = client.post(f"/api/machines/{machine.id}/commands/99999/cancel", headers=staff_headers)
    assert unknown.status_code == 404


def test_a_command_expires_undelivered_or_unanswered_and_reads_never_show_it_stale(
    client, staff_headers, keyed
):
    machine, key = keyed
    queued = send(client, staff_headers, machine.id, command="stir", value=3).json
    make_overdue(queued["id"])
    listed = client.get(f"/api/machines/{machine.id}/commands", headers=staff_headers).json["data"]
    assert listed[0]["status"] == "expired" and "Not delivered" in listed[0]["detail"]
    assert client.get("/api/device/commands", headers=device(key)).json == {"commands": []}

    answered_late = send(client, staff_headers, machine.id, command="stir", value=3).json
    assert (
        client.get("/api/device/commands", headers=device(key)).json["commands"][0]["id"]
        == answered_late["id"]
    )
    make_overdue(answered_late["id"])
    res = client.post(
        f"/api/device/commands/{answered_late['id']}/result", json={"status": "executed"}, headers=device(key)
    )
    assert res.status_code == 409 and "expired" in res.json["message"]
    row = db.session.get(Command, answered_late["id"])
    db.session.refresh(row)
    assert row.status == "expired" and "did not answer" in row.detail


def test_the_minute_tick_expires_overdue_commands(client, staff_headers, keyed):
    machine, _key = keyed
    cid = send(client, staff_headers, machine.id, command="feed_pump", value="off").json["id"]
    keep = send(client, staff_headers, machine.id, command="stir", value=3).json["id"]
    make_overdue(cid)
    assert tick()["expired_commands"] == 1
    assert db.session.get(Command, cid).status == "expired"
    assert db.session.get(Command, keep).status == "queued"
    assert tick()["expired_commands"] == 0


def test_list_is_paged_newest_first_and_filters_by_status(client, staff_headers, keyed):
    machine, key = keyed
    ids = [send(client, staff_headers, machine.id, command=c, value=v).json["id"]
           for c, v in (("stir", 1), ("feed_pump", "on"), ("generator", "start"))]  # fmt: skip
    client.post(f"/api/machines/{machine.id}/commands/{ids[0]}/cancel", headers=staff_headers)
    page = client.get(f"/api/machines/{machine.id}/commands?per_page=2", headers=staff_headers).json
    assert page["total"] == 3 and [c["id"] for c in page["data"]] == [ids[2], ids[1]]
    second = client.get(f"/api/machines/{machine.id}/commands?per_page=2&page=2", headers=staff_headers).json
    assert [c["id"] for c in second["data"]] == [ids[0]]
    cancelled = client.get(
        f"/api/machines/{machine.id}/commands?status=cancelled", headers=staff_headers
    ).json
    assert [c["id"] for c in cancelled["data"]] == [ids[0]]
    bad = client.get(f"/api/machines/{machine.id}/commands?status=lost", headers=staff_headers)
    assert bad.status_code == 400 and bad.json["field"] == "status"
    assert client.get(f"/api/machines/{machine.id}/commands?page=0", headers=staff_headers).status_code == 400


def test_who_may_send_list_and_cancel(client, api_headers, keyed):
    machine, _key = keyed
    for role in (RoleId.ADMIN, RoleId.STAFF, RoleId.OPERATOR):
        res = send(client, api_headers(make_account(role=role)), machine.id, command="stir", value=2)
        assert res.status_code in (201, 409), (role, res.json)
    household = api_headers(make_account(role=RoleId.HOUSEHOLD))
    assert send(client, household, machine.id, command="feed_pump", value="on").status_code == 403
    assert client.get(f"/api/machines/{machine.id}/commands", headers=household).status_code == 403
    no_module = api_headers(make_account(role=RoleId.OPERATOR, modules=[1, 3]))
    assert send(client, no_module, machine.id, command="feed_pump", value="on").status_code == 403
    # A household account given the machines module may read, still not send.
    reader = api_headers(make_account(role=RoleId.HOUSEHOLD, modules=[1, 2, 4]))
    assert client.get(f"/api/machines/{machine.id}/commands", headers=reader).status_code == 200
    assert send(client, reader, machine.id, command="feed_pump", value="on").status_code == 403
    assert command_count() == 1
    assert client.post(f"/api/machines/{machine.id}/commands", json={"command": "stir"}).status_code == 401


def test_another_barangays_machine_is_not_found(client, staff_headers, keyed):
    mine, _key = keyed
    far, far_key = foreign_machine()
    assert send(client, staff_headers, far.id, command="stir", value=2).status_code == 404
    assert client.get(f"/api/machines/{far.id}/commands", headers=staff_headers).status_code == 404
    # The far barangay's own command cannot be cancelled from here, by either path.
    far_staff = make_account(role=RoleId.STAFF, barangay_id=far.barangay_id)
    from tests.factories import token_for

    far_cmd = send(
        client, {"Authorization": f"Bearer {token_for(far_staff)}"}, far.id, command="stir", value=2
    )
    assert far_cmd.status_code == 201
    cid = far_cmd.json["id"]
    assert (
        client.post(f"/api/machines/{far.id}/commands/{cid}/cancel", headers=staff_headers).status_code == 404
    )
    assert (
        client.post(f"/api/machines/{mine.id}/commands/{cid}/cancel", headers=staff_headers).status_code
        == 404
    )
    assert db.session.get(Command, cid).status == "queued"
    assert send(client, staff_headers, 99999999, command="stir", value=2).status_code == 404


def test_a_device_never_sees_or_changes_another_machines_commands(client, staff_headers, keyed):
    machine, key = keyed
    _other, other_key = keyed_machine("Digester Dos")
    cid = send(client, staff_headers, machine.id, command="stir", value=2).json["id"]
    assert client.get("/api/device/commands", headers=device(other_key)).json == {"commands": []}
    res = client.post(
        f"/api/device/commands/{cid}/result", json={"status": "executed"}, headers=device(other_key)
    )
    assert res.status_code == 404
    assert db.session.get(Command, cid).status == "queued"
    assert len(client.get("/api/device/commands", headers=device(key)).json["commands"]) == 1


def test_device_routes_need_a_good_key_and_a_good_answer(client, staff_headers, keyed):
    machine, key = keyed
    for bad in (
        {},
        {"Authorization": "Device nope"},
        {"Authorization": "Bearer x"},
        {"X-Device-Key": "nope"},
    ):
        res = client.get("/api/device/commands", headers=bad)
        assert res.status_code == 401 and res.json["success"] is False and res.json["message"]
    assert client.get("/api/device/commands", headers={"X-Device-Key": key}).status_code == 200
    cid = send(client, staff_headers, machine.id, command="stir", value=2).json["id"]
    client.get("/api/device/commands", headers=device(key))
    url = f"/api/device/commands/{cid}/result"
    for body, field in (
        ({"status": "done"}, "status"),
        ({}, "status"),
        ({"status": "executed", "detail": 5}, "detail"),
        ({"status": "executed", "detail": "x" * 501}, "detail"),
    ):
        res = client.post(url, json=body, headers=device(key))
        assert res.status_code == 400 and res.json["field"] == field, body
    assert client.post(url, data="x", headers=device(key)).status_code in (400, 415)
    assert (
        client.post(
            "/api/device/commands/abc/result", json={"status": "executed"}, headers=device(key)
        ).status_code
        == 404
    )
    assert db.session.get(Command, cid).status == "delivered"
