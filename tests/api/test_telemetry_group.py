"""Single readings posted at the same moment share one commit on SQLite (sibol/telemetry/group.py):
each is stored exactly once and each request gets its own answer, a revoked key, a duplicate or an
alert among them included, and an error in the group stores every reading alone."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select, update

from sibol.extensions import db
from sibol.models.telemetry import Alert, DeviceKey, Reading, Rollup
from sibol.telemetry import group, single
from tests.factories_telemetry import device, healthy, iso, keyed_machine

pytestmark = pytest.mark.skipif(
    os.environ.get("SIBOL_TEST_DATABASE_URL", "").startswith("mysql"), reason="SQLite's grouped commits"
)


def stored(machine_id: int) -> int:
    return db.session.scalar(
        select(func.count()).select_from(Reading).where(Reading.machine_id == machine_id)
    )


def hour_count(machine_id: int) -> int:
    return db.session.scalar(
        select(func.sum(Rollup.cells("ph").n)).where(Rollup.machine_id == machine_id, Rollup.period == "h")
    )


@pytest.fixture
def groups(monkeypatch) -> list[int]:
    """The size of every group written."""
    sizes: list[int] = []
    write = group._write_group

    def counted(conn, driver, batch):
        sizes.append(len(batch))
        return write(conn, driver, batch)

    monkeypatch.setattr(group, "_write_group", counted)
    return sizes


def post_together(app, posts: list[tuple[str, dict]]) -> list:
    """Post every (key, reading) from its own thread while the writers' turn is held, so that all of
    them are queued before the first group is written; the answers in order."""
    answers: list = [None] * len(posts)

    def send(i: int, key: str, reading: dict) -> None:
        answers[i] = app.test_client().post("/api/telemetry", json=reading, headers=device(key))

    threads = [threading.Thread(target=send, args=(i, *post)) for i, post in enumerate(posts)]
    with single._turn_lock:
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            queued = group._groups.get((os.getpid(), id(db.engine)))
            if queued is not None and len(queued.queued) == len(posts):
                break
            time.sleep(0.005)
        else:
            pytest.fail("the readings were not all queued")
    for thread in threads:
        thread.join(timeout=30)
    return answers


def test_readings_posted_together_are_stored_once_each_in_one_commit(app, groups):
    machines = [keyed_machine() for _ in range(12)]
    ts = iso(3)
    answers = post_together(app, [(key, healthy(ts=ts)) for _machine, key in machines])
    assert [(a.status_code, a.json) for a in answers] == [(202, {"accepted": 1, "duplicates": 0})] * 12
    assert groups == [12]
    db.session.expire_all()
    for machine, _key in machines:
        assert stored(machine.id) == 1 and hour_count(machine.id) == 1


def test_many_threads_posting_without_pause_store_every_reading_exactly_once(app):
    machines = [keyed_machine() for _ in range(8)]
    answers: list = []

    now = datetime.now(UTC)

    def post_five(key: str, worker: int) -> None:
        client = app.test_client()
        for n in range(5):
            # each machine's readings are one second apart: worker w sends seconds w*10..w*10+4
            # before one `now` (taken afresh per post, two posts a second apart would send the
            # same time)
            reading = healthy(ts=iso((worker * 10 + n) / 60, now=now))
            answers.append(client.post("/api/telemetry", json=reading, headers=device(key)).json)

    threads = [
        threading.Thread(target=post_five, args=(key, w)) for w in range(2) for _machine, key in machines
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == 80 and all(a == {"accepted": 1, "duplicates": 0} for a in answers)
    db.session.expire_all()
    for machine, _key in machines:
        assert stored(machine.id) == 10 and hour_count(machine.id) == 10


def test_a_duplicate_in_the_group_is_counted_not_stored(app, groups):
    (one, key), (other, other_key) = keyed_machine(), keyed_machine()
    reading = healthy(ts=iso(2))
    answers = post_together(app, [(key, reading), (other_key, healthy(ts=iso(2))), (key, reading)])
    assert sorted(str(a.json) for a in (answers[0], answers[2])) == [
        str({"accepted": 0, "duplicates": 1}),
        str({"accepted": 1, "duplicates": 0}),
    ]
    assert answers[1].json == {"accepted": 1, "duplicates": 0}
    assert groups == [3]
    db.session.expire_all()
    assert (stored(one.id), hour_count(one.id), stored(other.id)) == (1, 1, 1)


def test_a_key_revoked_before_the_group_is_refused_and_the_others_stored(app, groups):
    (revoked, old_key), (kept, key) = keyed_machine(), keyed_machine()
    for k in (old_key, key):  # the keys are now in this process's key cache
        assert (
            app.test_client().post("/api/telemetry", json=healthy(ts=iso(9)), headers=device(k)).status_code
            == 202
        )
    db.session.execute(
        update(DeviceKey).where(DeviceKey.machine_id == revoked.id).values(key_hash="replaced")
    )
    db.session.commit()
    answers = post_together(app, [(old_key, healthy(ts=iso(1))), (key, healthy(ts=iso(1)))])
    assert answers[0].status_code == 401 and answers[0].json["code"] == "unauthorized"
    assert answers[1].status_code == 202 and answers[1].json == {"accepted": 1, "duplicates": 0}
    assert groups[-1] == 2
    db.session.expire_all()
    assert (stored(revoked.id), stored(kept.id)) == (1, 2)
    # and the cache has forgotten it: refused again at once, before any write
    assert (
        app.test_client().post("/api/telemetry", json=healthy(), headers=device(old_key)).status_code == 401
    )


def test_a_reading_that_opens_an_alert_goes_the_general_way_and_the_group_is_kept(app, groups):
    (sick, sick_key), (well, well_key) = keyed_machine(), keyed_machine()
    answers = post_together(app, [(sick_key, healthy(ts=iso(1), ph=4.0)), (well_key, healthy(ts=iso(1)))])
    assert [(a.status_code, a.json) for a in answers] == [(202, {"accepted": 1, "duplicates": 0})] * 2
    assert groups == [2]
    db.session.expire_all()
    assert (stored(sick.id), hour_count(sick.id), stored(well.id)) == (1, 1, 1)
    alert = db.session.scalar(select(Alert).where(Alert.machine_id == sick.id))
    assert alert is not None and alert.metric == "ph" and alert.closed_at is None


def test_an_error_in_the_group_stores_each_reading_alone(app, groups, monkeypatch):
    machines = [keyed_machine() for _ in range(4)]
    failing = machines[1][0].id
    stage, failed = single.stage, []

    def fails_once(cursor, driver, machine_id, *args):
        if machine_id == failing and not failed:
            failed.append(machine_id)
            raise sqlite3.OperationalError("disk I/O error")
        return stage(cursor, driver, machine_id, *args)

    monkeypatch.setattr(single, "stage", fails_once)
    answers = post_together(app, [(key, healthy(ts=iso(1))) for _machine, key in machines])
    assert failed == [failing] and groups == [4]
    assert [(a.status_code, a.json) for a in answers] == [(202, {"accepted": 1, "duplicates": 0})] * 4
    db.session.expire_all()
    for machine, _key in machines:
        assert stored(machine.id) == 1 and hour_count(machine.id) == 1
