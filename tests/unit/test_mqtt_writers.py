"""How the subscriber splits a batch over its writer processes, and how many it starts."""

from __future__ import annotations

from sibol.mqtt.dispatch import Message
from sibol.mqtt.writers import split, writer_count


def batch(*machine_ids: int) -> list[Message]:
    return [Message(m, "telemetry", str(i).encode()) for i, m in enumerate(machine_ids)]


def test_each_machine_is_wholly_in_one_part_in_arrival_order():
    messages = batch(7, 3, 9, 3, 1, 7, 8, 3, 2, 9)
    parts = split(messages, 2)
    assert sorted(m.payload for p in parts for m in p) == sorted(m.payload for m in messages)
    for machine in {m.machine_id for m in messages}:
        holding = [p for p in parts if any(m.machine_id == machine for m in p)]
        assert len(holding) == 1
        mine = [m.payload for m in holding[0] if m.machine_id == machine]
        assert mine == [m.payload for m in messages if m.machine_id == machine]


def test_parts_are_runs_of_machine_ids_of_about_equal_size():
    parts = split(batch(*range(100, 0, -1)), 2)
    assert [[m.machine_id for m in p][:1] for p in parts] == [[1], [51]]
    assert max(m.machine_id for m in parts[0]) < min(m.machine_id for m in parts[1])
    assert [len(p) for p in parts] == [50, 50]


def test_fewer_machines_than_writers_leave_no_empty_part():
    assert [[m.machine_id for m in p] for p in split(batch(4, 4, 4), 3)] == [[4, 4, 4]]
    assert split([], 2) == []


def test_one_writer_on_sqlite_two_on_a_server_unless_configured(app):
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    assert writer_count(app) == (1 if uri.startswith("sqlite") else 2)
    app.config["SIBOL_MQTT_WRITERS"] = "3"
    assert writer_count(app) == 3
    app.config["SIBOL_MQTT_WRITERS"] = "0"
    assert writer_count(app) == 1
