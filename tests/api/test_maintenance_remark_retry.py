"""POST /api/maintenance/requests/{id}/remarks with an Idempotency-Key: the write a remark typed
with no signal is sent through, so a resend after a lost answer saves the remark once."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import MaintenanceEvent, MaintenanceRequest
from tests.factories_maintenance import make_request

pytestmark = pytest.mark.usefixtures("fresh_identity")


def remark_events(request_id: int) -> int:
    return db.session.scalar(
        select(func.count(MaintenanceEvent.id)).where(
            MaintenanceEvent.request_id == request_id, MaintenanceEvent.kind == "remark"
        )
    )


def test_a_resent_remark_with_its_key_is_saved_once_and_replays_the_answer(client, staff_headers):
    req = make_request()
    url = f"/api/maintenance/requests/{req.id}/remarks"
    sent = {**staff_headers, "Idempotency-Key": "remark-offline-1"}
    first = client.post(url, json={"remarks": "Blade replaced"}, headers=sent)
    again = client.post(url, json={"remarks": "Blade replaced"}, headers=sent)
    assert first.status_code == again.status_code == 200
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.json == first.json and first.json["message"] == "Remark saved."
    assert remark_events(req.id) == 1


def test_the_same_key_with_another_remark_is_refused_and_nothing_changes(client, staff_headers):
    req = make_request()
    url = f"/api/maintenance/requests/{req.id}/remarks"
    sent = {**staff_headers, "Idempotency-Key": "remark-offline-2"}
    assert client.post(url, json={"remarks": "First"}, headers=sent).status_code == 200
    res = client.post(url, json={"remarks": "Second"}, headers=sent)
    assert res.status_code == 422
    db.session.expire_all()
    assert db.session.get(MaintenanceRequest, req.id).remarks == "First"
    assert remark_events(req.id) == 1


def test_an_empty_remark_is_refused_naming_the_field(client, staff_headers):
    req = make_request()
    res = client.post(
        f"/api/maintenance/requests/{req.id}/remarks",
        json={"remarks": "  "},
        headers={**staff_headers, "Idempotency-Key": "remark-offline-3"},
    )
    assert res.status_code == 400 and res.json["field"] == "remarks"
    assert remark_events(req.id) == 0
