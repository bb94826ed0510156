"""The /maintenance page without JavaScript: tabs, columns, search, chips, forms and dialogs."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.i18n.localtime import today
from sibol.maintenance import seed, service
from sibol.models import MaintenanceRequest, RoleId
from tests.factories import make_account
from tests.factories_maintenance import PNG, due_in, make_operator, make_request


@pytest.fixture
def staff(app):
    return make_account(role=RoleId.STAFF, first_name="Liza", last_name="Cruz")


def page(client, query: str = "") -> str:
    res = client.get(f"/maintenance{query}")
    assert res.status_code == 200, res.get_data(as_text=True)[:500]
    return res.get_data(as_text=True)


def headers_of(html: str) -> list[str]:
    head = html.split("<thead>", 1)[1].split("</thead>", 1)[0]
    return re.findall(r'<th scope="col">([^<]+)</th>', head)


def row_numbers(html: str) -> list[str]:
    return re.findall(r'data-request-number="(\d+)"', html)


def count_requests() -> int:
    return db.session.scalar(select(func.count(MaintenanceRequest.id)))


def test_page_needs_the_maintenance_module(client, login):
    res = client.get("/maintenance")
    assert res.status_code == 302 and "/login" in res.headers["Location"]
    login(make_account(role=RoleId.HOUSEHOLD))
    res = client.get("/maintenance")
    assert res.status_code == 403 and "does not have access to Maintenance" in res.get_data(as_text=True)


def test_tabs_and_their_columns(client, staff_client):
    html = page(client)
    assert 'aria-current="page">Complete Maintenance</a>' in html  # the default tab
    assert headers_of(html) == [
        "Request Number",
        "Details",
        "Priority",
        "Date Completed",
        "Assigned to",
        "Image",
    ]
    assert "No maintenance records found" in html and "New maintenance request</a>" not in html
    html = page(client, "?tab=request")
    assert headers_of(html) == ["Request Number", "Details", "Priority", "Request Date", "Image"]
    assert 'id="mnt-new-button"' in html and 'id="mnt-request-dialog"' in html
    assert "New maintenance request</a>" in html and 'aria-current="page">Request Maintenance</a>' in html
    html = page(client, "?tab=pending")
    assert headers_of(html) == [
        "Request Number",
        "Details",
        "Priority",
        "Due Date",
        "Assigned to",
        "Contact Detail",
        "Status",
        "Image",
    ]
    assert 'id="mnt-new-button"' not in html


def test_sample_rows_show_with_priority_colours(client, staff_client):
    seed.sample_data()
    html = page(client, "?tab=pending")
    assert len(row_numbers(html)) == 3
    assert 'badge--red mnt-priority">Urgent' in html and 'badge--orange mnt-priority">Critical' in html
    assert 'badge--yellow mnt-priority">Mild' in html and "Juan Dela Cruz" in html
    assert "0917 555 0101" in html
    complete = page(client)
    assert "101104" in complete and 'badge--grey mnt-status">Canceled' in complete


def test_create_from_the_modal_form_with_an_image(client, staff_client):
    operator = make_operator(first_name="Ana", last_name="Bautista")
    html = page(client, "?tab=request&new=1")
    assert re.search(r'<dialog id="mnt-request-dialog"[^>]* open', html)
    number = re.search(r'name="requestNumber" value="(\d+)"', html).group(1)
    assert f"#{number}" in html and ">Ana Bautista</option>" in html and ">Assign</button>" in html
    data = {
        "assignedTo": str(operator.id),
        "issue": "Conveyor stuck",
        "priority": "critical",
        "dueDate": due_in(3),
        "requestNumber": number,
        "file": (io.BytesIO(PNG), "stuck.png"),
    }
    res = client.post("/maintenance/requests?tab=request", data=data, content_type="multipart/form-data")
    assert res.status_code == 302 and res.headers["Location"].endswith("/maintenance?tab=pending")
    html = page(client, "?tab=pending")
    assert f"Maintenance request #{number} was created and assigned to Ana Bautista." in html
    assert row_numbers(html) == [number] and "View image" in html


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"assignedTo": ""}, "Assigned to is required."),
        ({"issue": "   "}, "Issue is required."),
        ({"priority": ""}, "Priority is required."),
        ({"dueDate": ""}, "Due date is required."),
        ({"dueDate": "2001-01-01"}, "Due date cannot be in the past."),
        (
            {"file": (io.BytesIO(b"GIF8 not really"), "x.gif")},
            "x.gif is not an image (PNG, JPEG, GIF or WebP).",
        ),
    ],
)
def test_form_errors_show_in_the_open_modal_and_nothing_is_saved(client, staff_client, changes, message):
    operator = make_operator()
    data = {
        "assignedTo": str(operator.id),
        "issue": "Gauge <b>broken</b>",
        "priority": "mild",
        "dueDate": due_in(2),
    } | changes
    res = client.post("/maintenance/requests?tab=request", data=data, content_type="multipart/form-data")
    assert res.status_code == 400
    html = res.get_data(as_text=True)
    assert re.search(r'<dialog id="mnt-request-dialog"[^>]* open', html)
    assert message in html
    if changes.get("issue") is None:
        assert "Gauge &lt;b&gt;broken&lt;/b&gt;</textarea>" in html  # kept, and escaped
    assert count_requests() == 0


def test_an_upload_past_the_hard_stop_is_a_field_error(client, staff_client):
    operator = make_operator()
    data = {
        "assignedTo": str(operator.id),
        "issue": "x",
        "priority": "mild",
        "dueDate": due_in(2),
        "file": (io.BytesIO(PNG + b"\0" * (11 * 1024 * 1024)), "huge.png"),
    }
    res = client.post("/maintenance/requests?tab=request", data=data, content_type="multipart/form-data")
    assert res.status_code == 413
    html = res.get_data(as_text=True)
    assert "The image must be 10 MB or smaller." in html and 'id="mnt-request-dialog"' in html
    assert count_requests() == 0


def test_search_filters_and_chips_are_links(client, staff_client):
    make_request(issue="Blade jammed", priority="urgent", request_number=100021)
    make_request(issue="Gauge erratic", priority="critical", request_number=100022)
    html = page(client, "?tab=request&q=gauge")
    assert row_numbers(html) == ["100022"]
    html = page(client, "?tab=request&priority=urgent&status=ongoing")
    assert row_numbers(html) == ["100021"]
    chips = re.findall(r'<li class="chip">([^<]+)<a href="([^"]+)"', html)
    assert [c[0].strip() for c in chips] == ["Status: On-going", "Priority: Urgent"]
    remove_priority = chips[1][1].replace("&amp;", "&")
    assert "priority" not in remove_priority and "status=ongoing" in remove_priority
    assert sorted(row_numbers(page(client, remove_priority.removeprefix("/maintenance")))) == [
        "100021",
        "100022",
    ]
    html = page(client, "?tab=request&priority=mild")
    assert "No maintenance records found" in html


def test_detail_dialog_renew_complete_and_history(client, staff_client):
    req = make_request(issue="Valve leak", files=[service.Upload("valve.png", PNG)])
    html = page(client, f"?tab=pending&request={req.id}")
    assert re.search(r'<dialog id="mnt-detail-dialog"[^>]* open', html)
    assert "Valve leak" in html and "valve.png" in html and ">Renew Request</button>" in html
    res = client.post(
        f"/maintenance/requests/{req.id}/renew?tab=pending",
        data={"dueDate": due_in(9), "remarks": "Parts delayed"},
    )
    assert res.status_code == 302 and res.headers["Location"].endswith("tab=pending")
    res = client.post(
        f"/maintenance/requests/{req.id}/renew?tab=pending",
        data={"dueDate": (today() - timedelta(days=2)).isoformat(), "remarks": "x"},
    )
    assert res.status_code == 400 and "New due date cannot be in the past." in res.get_data(as_text=True)
    res = client.post(
        f"/maintenance/requests/{req.id}/complete", data={"remarks": "Replaced the valve", "confirmed": "1"}
    )
    assert res.status_code == 302 and res.headers["Location"].endswith("tab=complete")
    html = page(client)
    assert f"Request #{req.request_number} was completed." in html and row_numbers(html) == [
        str(req.request_number)
    ]
    html = page(client, f"?request={req.id}")
    history = html.split('id="mnt-history"', 1)[1]
    assert [k for k in re.findall(r'data-kind="(\w+)"', history)] == [
        "completed",
        "renewed",
        "assigned",
        "created",
    ]
    assert "Parts delayed" in history and "Replaced the valve" in history and "by Liza Cruz" in history
    assert ">Renew Request</button>" not in html  # final: no actions
    res = client.post(f"/maintenance/requests/{req.id}/complete", data={})
    assert res.status_code == 409 and "already completed" in res.get_data(as_text=True)


def test_unknown_request_in_the_address_or_a_form(client, staff_client):
    res = client.get("/maintenance?request=999999")
    assert res.status_code == 404 and "Maintenance request not found." in res.get_data(as_text=True)
    res = client.post("/maintenance/requests/999999/complete")
    assert res.status_code == 302
    assert client.get("/maintenance/attachments/999999").status_code == 404
    assert client.get("/maintenance/attachments/99999999999999999999").status_code == 404
    assert client.get("/maintenance?request=99999999999999999999").status_code == 404


@pytest.mark.parametrize(
    "query",
    [
        "?tab=%00",
        "?page=abc&per_page=-4",
        "?status=x&priority=y&date=z",
        "?request=abc",
        "?q=" + "z" * 500,
        "?page=99",
    ],
)
def test_odd_query_strings_never_fail(client, staff_client, query):
    assert client.get(f"/maintenance{query}").status_code == 200


def test_the_detail_dialog_alone_for_the_island(client, staff_client):
    req = make_request(issue="Gauge <script>alert(1)</script>")
    res = client.get(f"/maintenance/requests/{req.id}/dialog?tab=pending&q=gauge")
    html = res.get_data(as_text=True)
    assert res.status_code == 200 and html.lstrip().startswith('<dialog id="mnt-detail-dialog"')
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert f'action="/maintenance/requests/{req.id}/renew?tab=pending&amp;q=gauge"' in html
    assert client.get("/maintenance/requests/999999/dialog").status_code == 404


def test_an_empty_form_shows_every_missing_field_at_once(client, staff_client):
    res = client.post("/maintenance/requests?tab=request", data={}, content_type="multipart/form-data")
    html = res.get_data(as_text=True)
    assert res.status_code == 400
    for message in (
        "Assigned to is required.",
        "Issue is required.",
        "Priority is required.",
        "Due date is required.",
    ):
        assert message in html
    assert count_requests() == 0
