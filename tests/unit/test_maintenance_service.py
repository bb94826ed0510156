"""The maintenance service: life cycle, history, images, request numbers, lists and filters."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from sibol.errors import Conflict, Invalid, NotFound, TooLarge
from sibol.extensions import db
from sibol.i18n.localtime import today
from sibol.maintenance import presentation, queries, rules, seed, service, uploads
from sibol.maintenance.queries import ListQuery
from sibol.maintenance.service import Upload
from sibol.models import AccountStatus, MaintenanceEvent, MaintenanceRequest, RoleId
from tests.factories import make_account
from tests.factories_maintenance import GIF, JPEG, PNG, WEBP, due_in, make_operator, make_request


def count_requests() -> int:
    return db.session.scalar(select(func.count(MaintenanceRequest.id)))


def stored_files() -> list[str]:
    folder = uploads.upload_dir()
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def kinds(req) -> list[str]:
    return [e.kind for e in req.events]


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (PNG, "image/png"),
        (JPEG, "image/jpeg"),
        (GIF, "image/gif"),
        (WEBP, "image/webp"),
        (b"%PDF-1.7", None),
        (b"<svg xmlns=", None),
        (b"RIFF\x00\x00\x00\x00WAVE", None),
        (b"", None),
    ],
)
def test_images_are_recognised_by_their_magic_bytes(data, kind):
    assert uploads.sniff_image(data) == kind


def test_a_new_request_is_on_going_with_its_image_and_history(app):
    staff = make_account(first_name="Liza", last_name="Soberano")
    operator = make_operator(first_name="Juan", last_name="Dela Cruz")
    req = make_request(
        actor=staff,
        assignee=operator,
        issue="  Valve leaking  ",
        priority="Critical",
        files=[Upload("photo.png", PNG)],
        request_number=123456,
    )
    assert req.request_number == 123456
    assert req.status == "ongoing" and req.priority == "critical" and req.issue == "Valve leaking"
    assert req.request_date == today()
    assert presentation.contact_of(req) == operator.email
    assert kinds(req) == ["created", "assigned"]
    assert req.events[1].note == "Juan Dela Cruz" and req.events[0].actor_name == "Liza Soberano"
    [attachment] = req.attachments
    assert attachment.original_name == "photo.png" and attachment.content_type == "image/png"
    assert attachment.stored_name != "photo.png" and attachment.stored_name.endswith(".png")
    assert (uploads.upload_dir() / attachment.stored_name).read_bytes() == PNG


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"issue": " "}, "issue", "Issue is required."),
        ({"issue": "x" * 2001}, "issue", "Issue must be at most 2000 characters."),
        ({"issue": 42}, "issue", "Issue must be text."),
        ({"priority": ""}, "priority", "Priority is required."),
        ({"priority": "whenever"}, "priority", "Priority must be Urgent, Critical or Mild."),
        ({"priority": 1}, "priority", "Priority must be Urgent, Critical or Mild."),
        ({"due_date": ""}, "dueDate", "Due date is required."),
        ({"due_date": "21/11/2026"}, "dueDate", "Due date must be a date (YYYY-MM-DD)."),
        ({"due_date": "2026-02-30"}, "dueDate", "Due date must be a date (YYYY-MM-DD)."),
        ({"due_date": 20261121}, "dueDate", "Due date must be a date (YYYY-MM-DD)."),
        ({"due_date": "yesterday"}, "dueDate", "Due date must be a date (YYYY-MM-DD)."),
        ({"assigned_to": ""}, "assignedTo", "Assigned to is required."),
        ({"assigned_to": "abc"}, "assignedTo", "Assigned to must be chosen from the list."),
        ({"assigned_to": 999999}, "assignedTo", "Assigned to must be an active operator."),
        ({"contact": "0" * 41}, "contactDetails", "Contact detail must be at most 40 characters."),
    ],
)
def test_bad_input_names_the_field_and_saves_nothing(app, changes, field, message):
    operator = make_operator()
    values = {
        "actor": None,
        "assigned_to": operator.id,
        "issue": "Leak",
        "priority": "mild",
        "due_date": due_in(),
        "files": [Upload("a.png", PNG)],
    } | changes
    with pytest.raises(Invalid) as caught:
        service.create_request(**values)
    assert (caught.value.field, caught.value.message) == (field, message)
    assert count_requests() == 0 and stored_files() == []


def test_due_date_in_the_past_is_refused_but_today_in_manila_is_fine(app):
    operator = make_operator()
    yesterday = (today() - timedelta(days=1)).isoformat()
    with pytest.raises(Invalid, match="Due date cannot be in the past."):
        make_request(assignee=operator, due=yesterday)
    assert make_request(assignee=operator, due=today().isoformat()).due_date == today()


def test_only_active_operators_can_be_assigned(app):
    staff = make_account(role=RoleId.STAFF)
    pending = make_operator(status=AccountStatus.PENDING)
    disabled = make_operator(is_enabled=False)
    active = make_operator(first_name="Ana", last_name="Bautista")
    for account in (staff, pending, disabled):
        with pytest.raises(Invalid, match="active operator"):
            make_request(assignee=account)
    assert [a.id for a in rules.operators()] == [active.id]


def test_non_images_and_big_files_are_refused_and_no_file_is_left(app):
    operator = make_operator()
    with pytest.raises(Invalid, match=r"notes.txt is not an image \(PNG, JPEG, GIF or WebP\)."):
        make_request(assignee=operator, files=[Upload("ok.png", PNG), Upload("notes.txt", b"hello")])
    with pytest.raises(TooLarge, match="10 MB or smaller") as caught:
        make_request(assignee=operator, files=[Upload("big.png", PNG + b"\0" * service.MAX_UPLOAD_BYTES)])
    assert caught.value.status == 413
    with pytest.raises(Invalid, match="at most 5 images"):
        make_request(assignee=operator, files=[Upload(f"{i}.png", PNG) for i in range(6)])
    assert count_requests() == 0 and stored_files() == []


def test_a_proposed_number_in_use_is_replaced_never_duplicated(app):
    first = make_request(request_number=111111)
    second = make_request(request_number=111111)
    assert second.request_number != first.request_number
    assert service.NUMBER_MIN <= second.request_number <= service.NUMBER_MAX


def test_a_number_taken_between_check_and_insert_is_retried(app, monkeypatch):
    make_request(request_number=122222)
    # As if another request took 122222 after the check: the insert fails and is retried.
    numbers = iter([122222, 133333])
    monkeypatch.setattr(service, "_random_number", lambda: next(numbers))
    real_taken = service._number_taken
    checks = []

    def taken_after_insert(number):
        checks.append(number)
        return real_taken(number) if len(checks) > 1 else False

    monkeypatch.setattr(service, "_number_taken", taken_after_insert)
    req = make_request(request_number=None, files=[Upload("a.gif", GIF)])
    assert req.request_number == 133333
    assert count_requests() == 2 and len(stored_files()) == 1


def test_when_no_number_is_free_nothing_is_saved(app, monkeypatch):
    monkeypatch.setattr(service, "_number_taken", lambda number: True)
    with pytest.raises(Conflict, match="No free request number"):
        make_request(request_number=None, files=[Upload("a.png", PNG)])
    assert count_requests() == 0 and stored_files() == []


def test_renew_sets_a_new_due_date_with_a_remark(app):
    actor = make_account(first_name="Rico", last_name="Blanco")
    req = make_request()
    renewed = service.renew_request(
        req.id, actor=actor, due_date=due_in(14), remarks="Parts arrive next week"
    )
    assert renewed.status == "ongoing" and renewed.due_date.isoformat() == due_in(14)
    assert renewed.remarks == "Parts arrive next week"
    event = renewed.events[-1]
    assert (event.kind, event.note, event.actor_name) == ("renewed", "Parts arrive next week", "Rico Blanco")
    assert event.due_date.isoformat() == due_in(14)


@pytest.mark.parametrize(
    ("due", "remarks", "message"),
    [
        ("", "ok", "New due date is required."),
        (
            (today() - timedelta(days=1)).isoformat(),
            "ok",
            "New due date cannot be in the past.",
        ),
        (due_in(3), "  ", "Remarks is required."),
    ],
)
def test_renew_refuses_bad_input(app, due, remarks, message):
    req = make_request(due=due_in(2))
    with pytest.raises(Invalid, match=message):
        service.renew_request(req.id, actor=None, due_date=due, remarks=remarks)
    db.session.expire_all()
    assert kinds(db.session.get(MaintenanceRequest, req.id)) == ["created", "assigned"]
    assert db.session.get(MaintenanceRequest, req.id).due_date.isoformat() == due_in(2)


def test_complete_is_final_and_a_second_complete_is_a_conflict(app):
    req = make_request()
    done = service.complete_request(req.id, actor=None, remarks="Fixed the valve")
    assert done.status == "completed" and done.date_completed == today()
    assert done.remarks == "Fixed the valve" and kinds(done)[-1] == "completed"
    for action in (
        lambda: service.complete_request(req.id, actor=None),
        lambda: service.cancel_request(req.id, actor=None, reason="late"),
        lambda: service.renew_request(req.id, actor=None, due_date=due_in(), remarks="again"),
        lambda: service.assign_request(req.id, actor=None, assigned_to=make_operator().id),
    ):
        with pytest.raises(Conflict) as caught:
            action()
        assert caught.value.status == 409
    db.session.expire_all()
    assert kinds(db.session.get(MaintenanceRequest, req.id)) == ["created", "assigned", "completed"]


def test_cancel_needs_a_reason_and_keeps_it(app):
    req = make_request()
    with pytest.raises(Invalid, match="A reason for canceling is required."):
        service.cancel_request(req.id, actor=None, reason="")
    canceled = service.cancel_request(req.id, actor=None, reason="Duplicate of #100231")
    assert canceled.status == "canceled" and canceled.cancel_reason == "Duplicate of #100231"
    assert canceled.date_completed is None and kinds(canceled)[-1] == "canceled"


def test_remarks_and_reassignment_are_kept_in_the_history(app):
    req = make_request()
    other = make_operator(first_name="Jose", last_name="Reyes")
    service.add_remark(req.id, actor=None, remarks="Checked on site")
    with pytest.raises(Invalid, match="already assigned"):
        service.assign_request(req.id, actor=None, assigned_to=req.assignee_id)
    moved = service.assign_request(req.id, actor=None, assigned_to=other.id)
    assert moved.assignee_id == other.id
    assert kinds(moved) == ["created", "assigned", "remark", "assigned"]
    assert moved.events[-1].note == "Jose Reyes" and moved.remarks == "Checked on site"


def test_unknown_requests_are_not_found(app):
    for action in (
        lambda: service.get_request(424242),
        lambda: service.complete_request(424242, actor=None),
        lambda: service.renew_request(424242, actor=None, due_date=due_in(), remarks="x"),
    ):
        with pytest.raises(NotFound):
            action()


def numbers(query: ListQuery, **kw) -> list[int]:
    return [r.request_number for r in queries.list_requests(query, **kw)[0]]


def test_tabs_search_and_filters_apply_to_the_data(app):
    juan = make_operator(first_name="Juan", last_name="Dela Cruz")
    a = make_request(assignee=juan, issue="Blade jammed", priority="urgent", request_number=100001)
    b = make_request(issue="Gauge erratic", priority="critical", request_number=100002)
    c = make_request(issue="Valve leak", priority="mild", request_number=100003)
    d = make_request(issue="Old belt", priority="mild", request_number=100004)
    service.complete_request(c.id, actor=None)
    service.cancel_request(d.id, actor=None, reason="Not needed")
    old = db.session.get(MaintenanceRequest, d.id)
    old.request_date = today() - timedelta(days=40)
    db.session.commit()

    assert set(numbers(ListQuery(tab="request"))) == {100001, 100002, 100003, 100004}
    assert set(numbers(ListQuery(tab="pending"))) == {a.request_number, b.request_number}
    assert set(numbers(ListQuery(tab="complete"))) == {100003, 100004}
    assert numbers(ListQuery(tab="request", q="juan dela")) == [100001]
    assert numbers(ListQuery(tab="request", q="1000 02".replace(" ", ""))) == [100002]
    assert numbers(ListQuery(tab="request", q="GAUGE")) == [100002]
    assert numbers(ListQuery(tab="request", q="100%")) == []
    assert set(numbers(ListQuery(tab="request", priorities=["mild"]))) == {100003, 100004}
    assert numbers(ListQuery(tab="request", priorities=["mild"], statuses=["canceled"])) == [100004]
    assert numbers(ListQuery(tab="pending", statuses=["completed"])) == []
    assert set(numbers(ListQuery(tab="request", periods=["weekly"]))) == {100001, 100002, 100003}
    assert set(numbers(ListQuery(tab="request", periods=["weekly", "yearly"]))) == {
        100001,
        100002,
        100003,
        100004,
    }
    rows, total = queries.list_requests(ListQuery(tab="request"), page=2, per_page=3)
    assert total == 4 and len(rows) == 1


def test_query_parsing_is_lenient_for_pages_and_strict_for_the_api(app):
    from werkzeug.datastructures import MultiDict

    args = MultiDict(
        [
            ("tab", "pending"),
            ("status", "On-going"),
            ("status", "nonsense"),
            ("priority", "urgent,mild"),
            ("date", "weekly"),
        ]
    )
    query = queries.parse_list_query(args)
    assert (query.tab, query.statuses, query.priorities, query.periods) == (
        "pending",
        ["ongoing"],
        ["urgent", "mild"],
        ["weekly"],
    )
    assert [c[2] for c in presentation.filter_chips(query)] == [
        "Status: On-going",
        "Priority: Urgent",
        "Priority: Mild",
        "Request date: Weekly",
    ]
    assert queries.parse_list_query(MultiDict([("tab", "bogus")])).tab == "complete"
    with pytest.raises(Invalid) as caught:
        queries.parse_list_query(args, strict=True)
    assert caught.value.field == "status"


def test_sample_data_seeds_operators_and_every_tab_once(app):
    seed.sample_data()
    seed.sample_data()
    operators = rules.operators()
    assert len(operators) == 4 and all(o.password_hash is None for o in operators)
    assert all(o.email for o in operators)
    for tab in ("request", "pending", "complete"):
        assert queries.list_requests(ListQuery(tab=tab))[1] > 0
    statuses = set(db.session.scalars(select(MaintenanceRequest.status)))
    assert statuses == {"ongoing", "completed", "canceled"}
    assert db.session.scalar(select(func.count(MaintenanceEvent.id))) >= 2 * count_requests()
    assert count_requests() == len(seed.SAMPLE_REQUESTS)
