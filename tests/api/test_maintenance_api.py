"""/api/maintenance/...: access, create with images, life cycle, lists, and every refusal in JSON."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.i18n.localtime import today
from sibol.maintenance import service, uploads
from sibol.models import MaintenanceRequest, RoleId
from tests.factories import make_account
from tests.factories_maintenance import JPEG, PNG, due_in, make_operator, make_request

URL = "/api/maintenance/requests"


def count_requests() -> int:
    return db.session.scalar(select(func.count(MaintenanceRequest.id)))


def stored_files() -> list[str]:
    folder = uploads.upload_dir()
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


@pytest.fixture
def staff(app):
    return make_account(role=RoleId.STAFF, first_name="Liza", last_name="Cruz")


def form(operator, **changes) -> dict:
    data = {
        "assignedTo": str(operator.id),
        "issue": "Shredder jammed",
        "priority": "Urgent",
        "dueDate": due_in(5),
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_the_api_needs_sign_in_and_the_maintenance_module(client, api_headers):
    assert client.get(URL).status_code == 401
    household = make_account(role=RoleId.HOUSEHOLD)
    res = client.get(URL, headers=api_headers(household))
    assert (
        res.status_code == 403 and res.json["message"] == "Your account does not have access to Maintenance."
    )
    operator = make_account(role=RoleId.OPERATOR)
    assert client.get(URL, headers=api_headers(operator)).status_code == 200


def test_create_with_an_image_then_read_it_back(client, staff_headers, api_headers, staff):
    operator = make_operator(first_name="Maria", last_name="Santos")
    data = form(operator, contactDetails="0917 555 0101", requestNumber="145678")
    data["file"] = (io.BytesIO(PNG), "leak.png")
    res = client.post(URL, data=data, headers=staff_headers, content_type="multipart/form-data")
    assert res.status_code == 201, res.json
    body = res.json["request"]
    assert (
        body["requestNumber"] == 145678 and res.json["message"] == "Maintenance request #145678 was created."
    )
    assert (body["details"], body["priority"], body["status"], body["assignedTo"]) == (
        "Shredder jammed",
        "Urgent",
        "On-going",
        "Maria Santos",
    )
    assert body["contactDetails"] == "0917 555 0101" and body["dueDate"] == due_in(5)
    assert body["requestDate"] == today().isoformat() and body["dateCompleted"] is None
    assert [(h["kind"], h["actor"]) for h in body["history"]] == [
        ("created", "Liza Cruz"),
        ("assigned", "Liza Cruz"),
    ]
    image = client.get(body["image"], headers=staff_headers)
    assert image.status_code == 200 and image.data == PNG and image.mimetype == "image/png"
    assert image.headers["X-Content-Type-Options"] == "nosniff"
    household = make_account(role=RoleId.HOUSEHOLD)
    assert client.get(body["image"], headers=api_headers(household)).status_code == 403
    detail = client.get(f"{URL}/{body['id']}", headers=staff_headers).json["request"]
    assert detail["attachments"][0]["name"] == "leak.png" and len(detail["history"]) == 2


def test_create_from_json_without_a_file(client, staff_headers):
    operator = make_operator()
    res = client.post(
        URL,
        json={"assignedTo": operator.id, "issue": "Gauge", "priority": "mild", "dueDate": due_in(1)},
        headers=staff_headers,
    )
    assert res.status_code == 201 and res.json["request"]["image"] is None
    assert res.json["request"]["contactDetails"] == operator.email


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"assignedTo": None}, "assignedTo"),
        ({"issue": ""}, "issue"),
        ({"issue": "x" * 2001}, "issue"),
        ({"priority": None}, "priority"),
        ({"priority": "Low"}, "priority"),
        ({"dueDate": None}, "dueDate"),
        ({"dueDate": "not-a-date"}, "dueDate"),
    ],
)
def test_missing_or_bad_fields_are_400_and_nothing_is_saved(client, staff_headers, changes, field):
    operator = make_operator()
    data = form(operator, **changes)
    data["file"] = (io.BytesIO(PNG), "a.png")
    res = client.post(URL, data=data, headers=staff_headers, content_type="multipart/form-data")
    assert res.status_code == 400 and res.json["field"] == field and res.json["success"] is False
    assert res.json["message"]
    assert count_requests() == 0 and stored_files() == []


def test_a_past_due_date_is_refused(client, staff_headers):
    yesterday = (today() - timedelta(days=1)).isoformat()
    res = client.post(URL, data=form(make_operator(), dueDate=yesterday), headers=staff_headers)
    assert res.status_code == 400 and res.json["message"] == "Due date cannot be in the past."
    assert count_requests() == 0


def test_a_non_image_upload_is_refused(client, staff_headers):
    data = form(make_operator())
    data["file"] = (io.BytesIO(b"#!/bin/sh\necho hi"), "photo.png")  # the name lies; the bytes do not
    res = client.post(URL, data=data, headers=staff_headers, content_type="multipart/form-data")
    assert res.status_code == 400 and res.json["field"] == "file"
    assert "not an image" in res.json["message"]
    assert count_requests() == 0 and stored_files() == []


@pytest.mark.parametrize("size", [10 * 1024 * 1024 + 1, 11 * 1024 * 1024 + 10])
def test_uploads_over_10_mb_are_413_json(client, staff_headers, size):
    data = form(make_operator())
    data["file"] = (io.BytesIO(JPEG + b"\0" * (size - len(JPEG))), "big.jpg")
    res = client.post(URL, data=data, headers=staff_headers, content_type="multipart/form-data")
    assert res.status_code == 413 and res.is_json
    assert "10 MB" in res.json["message"]
    assert count_requests() == 0 and stored_files() == []


@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        ({"data": "{not json", "content_type": "application/json"}, 400),
        ({"data": "[1, 2]", "content_type": "application/json"}, 400),
        ({"data": "issue=x", "content_type": "text/plain"}, 415),
        ({"json": {"assignedTo": True, "issue": "x", "priority": "mild", "dueDate": "2099-01-01"}}, 400),
        ({"json": {"assignedTo": [1], "issue": ["x"], "priority": {"a": 1}, "dueDate": 5}}, 400),
    ],
)
def test_malformed_bodies_are_refused_without_a_500(client, staff_headers, kwargs, status):
    res = client.post(URL, headers=staff_headers, **kwargs)
    assert res.status_code == status and res.is_json and res.json["message"]
    assert count_requests() == 0


def test_life_cycle_renew_then_complete_and_complete_again_is_409(client, staff_headers):
    req = make_request()
    base = f"{URL}/{req.id}"
    res = client.post(
        f"{base}/renew", json={"dueDate": due_in(10), "remarks": "Waiting for parts"}, headers=staff_headers
    )
    assert res.status_code == 200 and res.json["request"]["dueDate"] == due_in(10)
    assert res.json["request"]["remarks"] == "Waiting for parts"
    res = client.post(f"{base}/renew", json={"dueDate": "2000-01-01", "remarks": "x"}, headers=staff_headers)
    assert res.status_code == 400 and res.json["field"] == "dueDate"
    res = client.post(f"{base}/remarks", data={"remarks": "On site today"}, headers=staff_headers)
    assert res.status_code == 200
    res = client.post(f"{base}/complete", json={"remarks": "Fixed"}, headers=staff_headers)
    assert res.status_code == 200 and res.json["request"]["status"] == "Completed"
    assert res.json["request"]["dateCompleted"] == today().isoformat()
    assert res.json["request"]["tab"] == "complete"
    again = client.post(f"{base}/complete", headers=staff_headers)
    assert again.status_code == 409 and again.json["message"] == "This request is already completed."
    history = client.get(base, headers=staff_headers).json["request"]["history"]
    assert [h["kind"] for h in history] == ["created", "assigned", "renewed", "remark", "completed"]
    assert all(h["actor"] == "Liza Cruz" and h["at"].endswith("Z") for h in history[2:])


def test_cancel_and_reassign(client, staff_headers):
    req = make_request()
    other = make_operator(first_name="Ana", last_name="Bautista")
    res = client.post(f"{URL}/{req.id}/assign", json={"assignedTo": other.id}, headers=staff_headers)
    assert res.status_code == 200 and res.json["request"]["assignedTo"] == "Ana Bautista"
    res = client.post(f"{URL}/{req.id}/cancel", json={}, headers=staff_headers)
    assert res.status_code == 400 and res.json["field"] == "remarks"
    res = client.post(f"{URL}/{req.id}/cancel", json={"reason": "Duplicate"}, headers=staff_headers)
    assert res.status_code == 200 and res.json["request"]["status"] == "Canceled"
    assert (
        client.post(f"{URL}/{req.id}/cancel", json={"reason": "again"}, headers=staff_headers).status_code
        == 409
    )


@pytest.mark.parametrize("path", ["", "/renew", "/complete", "/cancel", "/remarks", "/assign"])
@pytest.mark.parametrize("request_id", ["987654", "0", "99999999999999999999999"])
def test_unknown_request_ids_are_404(client, staff_headers, path, request_id):
    method = client.get if path == "" else client.post
    res = method(f"{URL}/{request_id}{path}", headers=staff_headers)
    # An id too long for any database integer matches no route: the generic JSON 404.
    expected = "Not found." if len(request_id) > 18 else "Maintenance request not found."
    assert res.status_code == 404 and res.json["message"] == expected


def test_list_applies_tab_search_filters_and_paging(client, staff_headers):
    make_request(issue="Blade jammed", priority="urgent", request_number=100011)
    make_request(issue="Gauge erratic", priority="critical", request_number=100012)
    done = make_request(issue="Valve leak", priority="mild", request_number=100013)
    service.complete_request(done.id, actor=None)

    def numbers(query: str) -> list[int]:
        res = client.get(f"{URL}?{query}", headers=staff_headers)
        assert res.status_code == 200, res.json
        return sorted(r["requestNumber"] for r in res.json["data"])

    assert numbers("") == [100013]  # the Complete tab by default
    assert numbers("tab=pending") == [100011, 100012]
    assert numbers("tab=request&priority=urgent&priority=mild") == [100011, 100013]
    assert numbers("tab=request&status=completed&priority=mild") == [100013]
    assert numbers("tab=request&q=gauge") == [100012]
    assert numbers("tab=request&date=weekly") == [100011, 100012, 100013]
    page = client.get(f"{URL}?tab=request&per_page=2&page=2", headers=staff_headers).json
    assert (page["total"], page["page"], page["per_page"], len(page["data"])) == (3, 2, 2, 1)
    far = client.get(f"{URL}?tab=request&page=99999999999999999999", headers=staff_headers)
    assert far.status_code == 400 and far.json["field"] == "page"  # beyond any real list


@pytest.mark.parametrize(
    "query",
    ["tab=all", "status=done", "priority=low", "date=daily", "page=0", "per_page=1000", f"q={'x' * 101}"],
)
def test_bad_list_arguments_are_400(client, staff_headers, query):
    res = client.get(f"{URL}?{query}", headers=staff_headers)
    assert res.status_code == 400 and res.json["field"]


def test_operators_and_next_number(client, staff_headers):
    make_operator(first_name="Jose", last_name="Reyes")
    res = client.get("/api/maintenance/operators", headers=staff_headers)
    assert [o["name"] for o in res.json["operators"]] == ["Jose Reyes"]
    number = client.get("/api/maintenance/next-number", headers=staff_headers).json["requestNumber"]
    assert service.NUMBER_MIN <= number <= service.NUMBER_MAX


def test_cookie_writes_need_the_csrf_header(database_url, tmp_path):
    from sibol import create_app, seed
    from tests.conftest import base_overrides, empty_all_tables
    from tests.factories import DEFAULT_PASSWORD

    app = create_app(base_overrides(database_url, WTF_CSRF_ENABLED=True, SIBOL_UPLOAD_DIR=str(tmp_path)))
    with app.app_context():
        empty_all_tables()
        seed.reference_data()
        staff = make_account()
        operator = make_operator()
        client = app.test_client()
        page = client.get("/login").get_data(as_text=True)
        token = page.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
        client.post(
            "/login", data={"username": staff.username, "password": DEFAULT_PASSWORD, "csrf_token": token}
        )
        res = client.post(URL, json=form(operator))
        assert res.status_code == 400 and "security token" in res.json["message"]
        page = client.get("/maintenance").get_data(as_text=True)
        token = page.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
        res = client.post(URL, json=form(operator), headers={"X-CSRFToken": token})
        assert res.status_code == 201
        db.session.remove()


def test_all_field_errors_come_together_and_a_big_file_with_them_is_400(client, staff_headers):
    data = {"issue": "", "file": (io.BytesIO(PNG + b"\0" * (10 * 1024 * 1024)), "big.png")}
    res = client.post(URL, data=data, headers=staff_headers, content_type="multipart/form-data")
    assert res.status_code == 400
    assert res.json["field"] == "assignedTo" and res.json["message"] == "Assigned to is required."
    assert set(res.json["errors"]) == {"assignedTo", "issue", "priority", "dueDate", "file"}
    assert res.json["errors"]["file"] == "The image must be 10 MB or smaller."
    assert count_requests() == 0 and stored_files() == []
