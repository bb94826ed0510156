"""A subscriber with two writer processes (the default on MariaDB): a stream split over them is
stored exactly once, even when one writer is SIGKILLed mid-stream (the subscriber starts its
writers again and stores the unacknowledged batch once more)."""

from __future__ import annotations

import os
import signal
import threading
from datetime import datetime
from pathlib import Path

from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models.telemetry import Reading
from tests.factories import make_machine
from tests.support.mosquitto import SubscriberProcess, wait_until

from .stream import publish_stream, stored


def children(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(p) for p in text.split()]


def test_two_writers_store_a_stream_once_even_when_one_is_killed(broker, sub_env, tmp_path, issue):
    machines = [make_machine() for _ in range(6)]
    devices = [(m.id, issue(m)) for m in machines]
    log = tmp_path / "writers.log"
    sub = SubscriberProcess({**sub_env, "SIBOL_MQTT_WRITERS": "2"}, log).start().wait_ready()
    try:
        assert sub.proc is not None
        writers = children(sub.proc.pid)
        assert len(writers) == 2, writers
        acked: dict[int, set[datetime]] = {}
        stop = threading.Event()
        stream = threading.Thread(
            target=publish_stream, args=(broker.port, devices, 200, acked, stop), daemon=True
        )
        stream.start()
        wait_until(lambda: sum(len(stored(m.id)) for m in machines) > 100, what="a stream under way")
        os.kill(writers[0], signal.SIGKILL)
        stream.join(timeout=60)
        stop.set()
        assert sum(len(v) for v in acked.values()) == 6 * 200
        wait_until(
            lambda: all(acked[m.id] <= set(stored(m.id)) for m in machines),
            timeout=60,
            what="every acknowledged reading stored",
        )
        db.session.rollback()
        for m in machines:
            rows = db.session.scalar(
                select(func.count()).select_from(Reading).where(Reading.machine_id == m.id)
            )
            assert rows == len(set(stored(m.id))) == 200
        assert "starting the writers again" in log.read_text()
        assert writers[0] not in children(sub.proc.pid)
        assert len(children(sub.proc.pid)) == 2
        text = log.read_text()
        assert any(
            int(line.split("stored ")[1].split()[0]) > 0 for line in text.splitlines() if "batch:" in line
        )
    finally:
        sub.stop()


def test_the_writers_go_when_the_subscriber_is_sigkilled(broker, sub_env, tmp_path):
    sub = (
        SubscriberProcess({**sub_env, "SIBOL_MQTT_WRITERS": "2"}, tmp_path / "gone.log").start().wait_ready()
    )
    assert sub.proc is not None
    writers = children(sub.proc.pid)
    os.kill(sub.proc.pid, signal.SIGKILL)  # the subscriber alone, not its process group
    sub.proc.wait(timeout=10)

    def gone() -> bool:
        return not any(Path(f"/proc/{w}").exists() and "zombie" not in state(w) for w in writers)

    wait_until(gone, timeout=10, what="the writers to exit")


def state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0].lower()
    except (FileNotFoundError, IndexError):
        return "zombie"
