"""Commands over MQTT through a real Mosquitto (started here on a free port, its own data directory)
and the console's subscriber as its own process: an operator's command reaches the device on its
commands topic, the device answers on commands/result and the API shows the answer; refused
answers change nothing and show on the device page; the simulator's MQTT devices report."""

from __future__ import annotations

import json
import queue

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import RoleId
from sibol.models.telemetry import Reading
from tests.factories import make_account, make_admin, make_machine
from tests.support.mosquitto import device_client, wait_until


@pytest.fixture
def operator_headers(api_headers):
    return api_headers(make_account(role=RoleId.OPERATOR, first_name="Olivia", last_name="Opera"))


class Device:
    """A controller on MQTT: logged in as its machine, subscribed to its commands topic."""

    def __init__(self, port: int, machine_id: int, key: str) -> None:
        self.machine_id = machine_id
        self.inbox: queue.Queue[dict] = queue.Queue()
        self.subacks: dict[int, list] = {}
        self.pubacks: dict[int, object] = {}
        self.client = device_client(
            port,
            machine_id,
            key,
            on_message=lambda _c, _u, m: self.inbox.put(json.loads(m.payload)),
            on_subscribe=lambda _c, _u, mid, codes, _p: self.subacks.__setitem__(mid, codes),
            on_publish=lambda _c, _u, mid, reason, _p: self.pubacks.__setitem__(mid, reason),
        )

    def subscribe(self, topic: str) -> list:
        _rc, mid = self.client.subscribe(topic, 1)
        return wait_until(lambda: self.subacks.get(mid), what=f"the SUBACK of {topic}")

    def answer(self, body: dict | bytes, machine_id: int | None = None) -> object:
        payload = body if isinstance(body, bytes) else json.dumps(body)
        topic = f"sibol/v1/machines/{machine_id or self.machine_id}/commands/result"
        info = self.client.publish(topic, payload, 1)
        info.wait_for_publish(5)
        return self.pubacks[info.mid]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def command(client, headers, machine_id: int, command_id: int) -> dict:
    db.session.rollback()  # MariaDB: a fresh snapshot, the subscriber commits in its own process
    res = client.get(f"/api/machines/{machine_id}/commands", headers=headers)
    assert res.status_code == 200, res.json
    return next(c for c in res.json["data"] if c["id"] == command_id)


def device_page(client, login, machine_id: int) -> str:
    db.session.rollback()
    login(make_admin())
    return client.get(f"/sibol-machines/machines/{machine_id}/device").get_data(as_text=True)


def test_a_command_goes_to_the_device_over_mqtt_and_its_answer_shows_in_the_api(
    broker, subscriber, client, operator_headers, issue
):
    machine = make_machine()
    key = issue(machine)
    dev = Device(broker.port, machine.id, key)
    try:
        assert not dev.subscribe(f"sibol/v1/machines/{machine.id}/commands")[0].is_failure

        res = client.post(
            f"/api/machines/{machine.id}/commands",
            json={"command": "stir", "value": 5},
            headers=operator_headers,
        )
        assert res.status_code == 201, res.json
        sent = res.json
        assert sent["status"] == "delivered"  # the broker took it for the device's session

        got = dev.inbox.get(timeout=10)
        assert got == {"id": sent["id"], "command": "stir", "value": 5, "createdAt": sent["createdAt"]}
        # Delivered once: the HTTP poll does not hand it out again.
        poll = client.get("/api/device/commands", headers={"Authorization": f"Device {key}"})
        assert poll.status_code == 200 and poll.json == {"commands": []}

        assert not dev.answer(
            {"id": got["id"], "status": "executed", "detail": "Stirred 5 minutes"}
        ).is_failure
        done = wait_until(
            lambda: (
                (c := command(client, operator_headers, machine.id, sent["id"]))["status"] == "executed" and c
            ),
            what="the command executed",
        )
        assert done["detail"] == "Stirred 5 minutes"
        assert [e["status"] for e in done["events"]] == ["executed", "delivered", "queued"]  # newest first
    finally:
        dev.close()


def test_refused_answers_change_nothing_and_show_on_the_device_page(
    broker, subscriber, client, login, operator_headers, issue
):
    mine, theirs = make_machine(), make_machine()
    key, their_key = issue(mine), issue(theirs)
    dev = Device(broker.port, mine.id, key)
    try:
        assert not dev.subscribe(f"sibol/v1/machines/{mine.id}/commands")[0].is_failure
        # The device may not listen to another machine's commands, nor send itself commands.
        assert dev.subscribe(f"sibol/v1/machines/{theirs.id}/commands")[0].is_failure
        assert dev.subscribe("sibol/v1/machines/+/commands")[0].is_failure
        assert dev.answer({"id": 1, "status": "executed"}, machine_id=theirs.id).getName() == "Not authorized"

        # Nobody listens on their topic: the publish is not taken and the command waits for a poll.
        res = client.post(
            f"/api/machines/{theirs.id}/commands",
            json={"command": "feed_pump", "value": "on"},
            headers=operator_headers,
        )
        assert res.status_code == 201 and res.json["status"] == "queued", res.json
        their_cmd = res.json["id"]
        res = client.post(
            f"/api/machines/{mine.id}/commands",
            json={"command": "stir", "value": 5},
            headers=operator_headers,
        )
        mine_cmd = dev.inbox.get(timeout=10)["id"]
        assert mine_cmd == res.json["id"]

        dev.answer({"id": their_cmd, "status": "executed", "detail": "not mine"})  # another machine's
        dev.answer(b"{not json")
        dev.answer({"id": mine_cmd, "status": "done"})
        dev.answer({"id": mine_cmd, "status": "executed", "detail": "Stirred"})
        dev.answer({"id": mine_cmd, "status": "executed", "detail": "Stirred"})  # the same, sent again
        dev.answer({"id": mine_cmd, "status": "failed", "detail": "a second answer"})

        def tally() -> dict[str, int]:  # the subscriber's log: "command results: recorded 1 repeated 0 ..."
            counts = {"recorded": 0, "repeated": 0, "refused": 0}
            for line in subscriber.log.read_text().splitlines():
                if "command results:" in line:
                    words = line.split("command results:")[1].split()
                    for name, value in zip(words[::2], words[1::2], strict=True):
                        counts[name] += int(value)
            return counts

        wait_until(lambda: tally()["refused"] == 4, what="four refused answers")
        assert tally() == {"recorded": 1, "repeated": 1, "refused": 4}
        page = device_page(client, login, mine.id)
        assert "Refused messages: 4" in page
        assert "Command not found" in page
        assert "not valid JSON" in page
        assert "status must be executed or failed" in page
        assert "already executed" in page

        mine_now = command(client, operator_headers, mine.id, mine_cmd)
        assert (mine_now["status"], mine_now["detail"]) == ("executed", "Stirred")
        assert [e["status"] for e in mine_now["events"]] == [
            "executed",
            "delivered",
            "queued",
        ]  # newest first
        assert command(client, operator_headers, theirs.id, their_cmd)["status"] == "queued"
        # Their device still gets its command by polling over HTTP.
        poll = client.get("/api/device/commands", headers={"Authorization": f"Device {their_key}"})
        assert [c["id"] for c in poll.json["commands"]] == [their_cmd]
    finally:
        dev.close()


def test_flask_telemetry_simulate_mqtt_devices_report(app, broker, subscriber):
    runner = app.test_cli_runner()
    result = runner.invoke(
        args=[
            "telemetry",
            "simulate",
            "--mqtt",
            "--machines",
            "3",
            "--interval",
            "1",
            "--duration",
            "3",
            "--seed",
            "7",
        ]
    )
    assert result.exit_code == 0, result.output
    assert "The broker acknowledged" in result.output
    acked = int(result.output.rsplit("The broker acknowledged ", 1)[1].split()[0])
    assert acked >= 6

    def per_machine():
        db.session.rollback()
        rows = db.session.execute(select(Reading.machine_id, func.count()).group_by(Reading.machine_id)).all()
        return len(rows) == 3 and sum(n for _m, n in rows) >= acked and dict(rows)

    counts = wait_until(per_machine, what="every acknowledged reading stored")
    assert all(n >= 2 for n in counts.values())


def test_a_command_waits_for_the_http_poll_when_the_broker_is_down(broker, client, operator_headers, issue):
    machine = make_machine()
    key = issue(machine)
    broker.stop()
    res = client.post(
        f"/api/machines/{machine.id}/commands", json={"command": "stir", "value": 5}, headers=operator_headers
    )
    assert res.status_code == 201 and res.json["status"] == "queued", res.json
    poll = client.get("/api/device/commands", headers={"Authorization": f"Device {key}"})
    assert [c["id"] for c in poll.json["commands"]] == [res.json["id"]]
