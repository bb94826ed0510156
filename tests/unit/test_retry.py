"""A request whose transaction the database refuses as a conflict runs again from its start."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from sibol.data.retry import ATTEMPTS
from sibol.extensions import db, limiter
from sibol.identity.access import public
from sibol.models import Barangay


class Refusal(Exception):
    """What MySQLdb raises: the error code first."""


def conflict(code: int = 1213) -> OperationalError:
    return OperationalError("COMMIT", {}, Refusal(code, "Deadlock found when trying to get lock"))


@pytest.fixture
def flaky_route(app):
    attempts: list[int] = []

    def add_barangay(failures: int, code: int):
        attempts.append(1)
        db.session.add(Barangay(name=f"Attempt {len(attempts)}"))
        db.session.flush()
        if len(attempts) <= failures:
            raise conflict(code)
        db.session.commit()
        return {"attempts": len(attempts)}

    @public
    def view():
        from flask import request

        return add_barangay(int(request.args["failures"]), int(request.args.get("code", 1213)))

    app.add_url_rule("/test-retry", "test_retry", view, methods=["POST"])
    app.add_url_rule(
        "/test-retry-limited",
        "test_retry_limited",
        limiter.limit("3 per minute")(public(view)),
        methods=["POST"],
    )
    return attempts


def barangay_names() -> list[str]:
    return list(db.session.scalars(select(Barangay.name).where(Barangay.name.like("Attempt %"))))


def test_a_conflict_runs_the_request_again_and_keeps_only_the_last_attempt(client, flaky_route):
    res = client.post("/test-retry?failures=2")
    assert res.status_code == 200
    assert res.json == {"attempts": 3}
    assert barangay_names() == ["Attempt 3"]  # the refused attempts left nothing behind


def test_it_gives_up_after_the_last_attempt(client, flaky_route):
    res = client.post(f"/test-retry?failures={ATTEMPTS}")
    assert res.status_code == 503  # still refused: "busy, try again" rather than a crash
    assert res.headers["Retry-After"]
    assert len(flaky_route) == ATTEMPTS
    assert (
        db.session.scalar(select(func.count()).select_from(Barangay).where(Barangay.name.like("Attempt %")))
        == 0
    )


def test_other_database_errors_are_not_retried(client, flaky_route):
    res = client.post("/test-retry?failures=1&code=1146")  # no such table: running again cannot help
    assert res.status_code == 500
    assert len(flaky_route) == 1


def test_a_rerun_does_not_count_against_the_views_rate_limit(client, flaky_route):
    """Three a minute: one request retried three times is one of them, not four."""
    res = client.post("/test-retry-limited?failures=3")
    assert res.status_code == 200 and res.json == {"attempts": 4}
    assert client.post("/test-retry-limited?failures=0").status_code == 200
    assert client.post("/test-retry-limited?failures=0").status_code == 200
    assert client.post("/test-retry-limited?failures=0").status_code == 429  # the fourth request
