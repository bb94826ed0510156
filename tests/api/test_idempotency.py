"""Idempotency-Key under /api: a retried write runs once, per caller, for 24 hours."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from sibol.extensions import db
from sibol.models import CollectionSchedule, IdempotencyRecord, RoleId, utcnow
from tests.factories import make_account

pytestmark = pytest.mark.usefixtures("fresh_identity")

SCHEDULE = {
    "maintenancePerson": "Juan Dela Cruz",
    "collectorContact": "0917 123 4567",
    "area": "Purok 1",
    "dateOfCollection": "2026-12-01",
}


def schedules() -> int:
    return db.session.scalar(select(func.count()).select_from(CollectionSchedule))


def post(client, headers, key, body=None):
    return client.post(
        "/api/household/schedules", json=body or SCHEDULE, headers={**headers, "Idempotency-Key": key}
    )


def test_same_key_same_body_replays_the_first_answer_without_doing_the_work_again(client, staff_headers):
    first = post(client, staff_headers, "abc-1")
    again = post(client, staff_headers, "abc-1")
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert schedules() == 1


def test_another_key_is_another_request(client, staff_headers):
    assert post(client, staff_headers, "one").status_code == 201
    assert post(client, staff_headers, "two").status_code == 201
    assert schedules() == 2


def test_same_key_with_another_body_is_refused_with_422(client, staff_headers):
    post(client, staff_headers, "abc-2")
    res = post(client, staff_headers, "abc-2", {**SCHEDULE, "area": "Purok 9"})
    assert res.status_code == 422
    assert res.json["field"] == "Idempotency-Key"
    assert "another request" in res.json["message"]
    assert schedules() == 1


def test_same_key_on_another_path_is_another_body(client, staff_headers):
    post(client, staff_headers, "abc-3")
    res = client.put(
        "/api/household/point-rule",
        json={"wasteKg": 1, "points": 5},
        headers={**staff_headers, "Idempotency-Key": "abc-3"},
    )
    assert res.status_code == 422


def test_a_refusal_is_kept_and_replayed_too(client, staff_headers):
    bad = {**SCHEDULE, "maintenancePerson": " "}
    first = post(client, staff_headers, "bad-1", bad)
    again = post(client, staff_headers, "bad-1", bad)
    assert first.status_code == again.status_code == 400
    assert again.json == first.json and again.json["field"] == "maintenancePerson"


def test_while_the_first_is_running_the_second_gets_409(client, staff_headers, staff):
    # A row taken and not answered yet: what a request sees while the first one runs.
    post(client, staff_headers, "busy-1")
    db.session.execute(update(IdempotencyRecord).values(status=None, created_at=utcnow()))
    db.session.commit()
    res = post(client, staff_headers, "busy-1")
    assert res.status_code == 409
    assert res.headers["Retry-After"] == "1"
    assert res.json["field"] == "Idempotency-Key" and "still running" in res.json["message"]
    assert schedules() == 1


def test_a_first_request_that_died_long_ago_is_taken_over(client, staff_headers):
    post(client, staff_headers, "dead-1")
    db.session.execute(
        update(IdempotencyRecord).values(status=None, created_at=utcnow() - timedelta(minutes=5))
    )
    db.session.commit()
    assert post(client, staff_headers, "dead-1").status_code == 201
    assert schedules() == 2  # the first one's work was never answered: the retry ran it


def test_after_24_hours_the_key_is_new_again(client, staff_headers):
    post(client, staff_headers, "old-1")
    day_ago = utcnow() - timedelta(hours=24, minutes=1)
    db.session.execute(
        update(IdempotencyRecord).values(created_at=day_ago, expires_at=day_ago + timedelta(hours=24))
    )
    db.session.commit()
    res = post(client, staff_headers, "old-1")
    assert res.status_code == 201 and "Idempotent-Replayed" not in res.headers
    assert schedules() == 2


def test_keys_are_per_account_a_replay_never_shows_another_accounts_answer(
    client, staff_headers, api_headers
):
    first = post(client, staff_headers, "shared-key")
    other = api_headers(make_account(role=RoleId.STAFF))
    res = post(client, other, "shared-key")
    assert res.status_code == 201 and "Idempotent-Replayed" not in res.headers
    assert res.json["schedule"]["id"] != first.json["schedule"]["id"]
    assert schedules() == 2


def test_keys_differ_by_case(client, staff_headers):
    post(client, staff_headers, "Key-A")
    assert post(client, staff_headers, "key-a").status_code == 201
    assert schedules() == 2


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("", "Idempotency-Key must not be empty."),
        ("   ", "Idempotency-Key must not be empty."),
        ("k" * 256, "Idempotency-Key must be at most 255 characters."),
        ("tab\there", "Idempotency-Key must be printable characters (letters, digits, punctuation)."),
        ("caf\u00e9", "Idempotency-Key must be printable characters (letters, digits, punctuation)."),
    ],
)
def test_a_bad_key_is_refused_with_400_naming_the_header(client, staff_headers, key, message):
    res = post(client, staff_headers, key)
    assert res.status_code == 400
    assert res.json["field"] == "Idempotency-Key"
    assert res.json["message"] == message
    assert schedules() == 0


def test_255_characters_is_the_longest_key(client, staff_headers):
    assert post(client, staff_headers, "k" * 255).status_code == 201


def test_a_server_error_is_not_kept_so_a_retry_runs(client, staff_headers, app, monkeypatch):
    from sibol.household import service

    def broken(_data):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(service, "create_schedule", broken)
    assert post(client, staff_headers, "err-1").status_code == 500
    monkeypatch.undo()
    res = post(client, staff_headers, "err-1")
    assert res.status_code == 201 and "Idempotent-Replayed" not in res.headers


def test_without_the_header_every_request_runs(client, staff_headers):
    client.post("/api/household/schedules", json=SCHEDULE, headers=staff_headers)
    client.post("/api/household/schedules", json=SCHEDULE, headers=staff_headers)
    assert schedules() == 2


def test_a_get_ignores_the_header(client, staff_headers):
    res = client.get("/api/household/schedules", headers={**staff_headers, "Idempotency-Key": ""})
    assert res.status_code == 200
