"""/admin as server pages: the tables, paging, search and filter in the query string, and the
form posts that do every action without JavaScript."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from sibol.extensions import db, mail
from sibol.models import Account, AccountStatus, RoleId
from sibol.models.admin import AuditEntry
from tests.factories import make_account, make_admin
from tests.factories_admin import make_pending

pytestmark = pytest.mark.usefixtures("fresh_identity")


@pytest.fixture
def admin(app):
    return make_admin(username="boss")


def rows(html: str, table: str = "accounts-table") -> list[str]:
    body = html.split(f'id="{table}"', 1)[1].split("</tbody>", 1)[0]
    return re.findall(
        r"<tr data-(?:account|pending)-id=\"\d+\" data-username=\"[^\"]*\">\s*<td[^>]*>([^<]*)</td>", body
    )


def test_staff_get_403_and_anonymous_go_to_login(client, login):
    assert "/login" in client.get("/admin").headers["Location"]
    login(make_account(role=RoleId.STAFF))
    assert client.get("/admin").status_code == 403
    assert client.post("/admin/accounts", data={}).status_code == 403


def test_list_pages_through_25_accounts(client, admin_client):
    for n in range(24):
        make_account(username=f"person{n:02d}")
    html = client.get("/admin").get_data(as_text=True)
    assert "List of Accounts" in html and "User Approval" in html
    assert len(rows(html)) == 10 and "1-10 of 25" in html
    assert 'href="/admin?page=2"' in html and "Records per page" in html
    page3 = client.get("/admin?page=3").get_data(as_text=True)
    assert "21-25 of 25" in page3 and len(rows(page3)) == 5
    assert 'href="/admin?page=2"' in page3  # previous
    every = set()
    for page in (1, 2, 3):
        every |= set(rows(client.get(f"/admin?page={page}").get_data(as_text=True)))
    assert len(every) == 25
    big = client.get("/admin?per_page=25").get_data(as_text=True)
    assert "1-25 of 25" in big and len(rows(big)) == 25
    assert '<option value="25" selected>' in big
    # Out-of-range or junk values fall back instead of failing.
    assert "21-25 of 25" in client.get("/admin?page=99").get_data(as_text=True)
    assert "1-10 of 25" in client.get("/admin?page=x&per_page=-3").get_data(as_text=True)


def test_search_and_role_filter_in_the_query_string(client, admin_client):
    make_account(username="lola.basyang", first_name="Lola", last_name="Basyang", role=RoleId.HOUSEHOLD)
    make_account(username="op.one", first_name="Oscar", role=RoleId.OPERATOR, email="oscar@ops.ph")
    html = client.get("/admin?q=BASYANG").get_data(as_text=True)
    assert rows(html) == ["lola.basyang"] and 'value="BASYANG"' in html
    assert rows(client.get("/admin?q=ops.PH").get_data(as_text=True)) == ["op.one"]
    html = client.get(f"/admin?role={int(RoleId.OPERATOR)}").get_data(as_text=True)
    assert rows(html) == ["op.one"] and f'<option value="{int(RoleId.OPERATOR)}" selected>' in html
    assert "All roles" in html and "Filter by role" in html
    empty = client.get("/admin?q=nobody-here").get_data(as_text=True)
    assert rows(empty) == [] and "No accounts" in empty and "0-0 of 0" in empty
    paged = client.get("/admin?q=o&per_page=10&page=2").get_data(as_text=True)
    # The pager keeps the search in its links.
    assert "q=o" in paged


def test_approval_tab_badge_and_empty_state(client, admin_client):
    html = client.get("/admin?tab=approval").get_data(as_text=True)
    assert "No pending accounts." in html and 'data-count="0"' in html
    make_pending(username="p1", first_name="Pia", last_name="One")
    make_pending(username="p2")
    html = client.get("/admin").get_data(as_text=True)
    assert 'data-count="2"' in html and ">2</span>" in html
    approval = client.get("/admin?tab=approval").get_data(as_text=True)
    assert rows(approval, "pending-table") == ["p1", "p2"]
    assert 'data-name="Pia One"' in approval and "Reason for rejection (optional)" in approval


def test_create_through_the_form_shows_the_password_once(client, admin_client):
    with mail.record_messages() as outbox:
        res = client.post(
            "/admin/accounts",
            data={
                "first_name": "Ben",
                "last_name": "Santos",
                "email": "ben@example.test",
                "role": "3",
                "barangay": "",
                "password": "",
            },
        )
    assert res.status_code == 201
    html = res.get_data(as_text=True)
    assert 'id="created-username">ben.santos<' in html
    assert "A single-use link to set the password was e-mailed to ben@example.test." in html
    assert "/set-password?token=" in outbox[0].body and "Password:" not in outbox[0].body
    created = db.session.scalar(select(Account).where(Account.username == "ben.santos"))
    assert sorted(created.module_ids) == [1, 2, 3, 4, 5]  # no box ticked: the Operator defaults
    assert "ben.santos" in rows(client.get("/admin").get_data(as_text=True))


def test_create_form_refusal_keeps_the_input(client, admin_client):
    make_account(email="dup@example.test")
    res = client.post(
        "/admin/accounts",
        data={
            "first_name": "Dup",
            "last_name": "Licate",
            "email": "dup@example.test",
            "role": "2",
            "access": ["1", "2"],
        },
    )
    assert res.status_code == 409
    html = res.get_data(as_text=True)
    assert "already exists" in html and 'value="Dup"' in html
    assert 'value="1" checked' in html and 'value="3" checked' not in html
    missing = client.post(
        "/admin/accounts", data={"first_name": "No", "last_name": "Role", "email": "n@r.ph"}
    )
    assert missing.status_code == 400 and "Role is required." in missing.get_data(as_text=True)


def test_edit_form_changes_role_and_access_and_shows_the_audit(client, admin_client):
    user = make_account(role=RoleId.HOUSEHOLD, username="edit.me")
    page = client.get(f"/admin/accounts/{user.id}/edit").get_data(as_text=True)
    assert "readonly" in page and 'value="edit.me"' in page and "No activity recorded yet." in page
    res = client.post(
        f"/admin/accounts/{user.id}",
        data={"role": "3", "access": ["1", "2"], "first_name": "Ignored", "email": "x@y.z"},
    )
    assert res.status_code == 302
    db.session.expire_all()
    stored = db.session.get(Account, user.id)
    assert stored.role_id == 3 and sorted(stored.module_ids) == [1, 2] and stored.first_name == "Test"
    page = client.get(f"/admin/accounts/{user.id}/edit").get_data(as_text=True)
    assert "boss changed role or access: role Household to Operator" in page
    assert client.get("/admin/accounts/999999/edit").status_code == 404


def test_toggle_approve_and_reject_as_form_posts(client, admin_client):
    user = make_account(username="toggled")
    res = client.post(
        f"/admin/accounts/{user.id}/active", data={"active": "0", "next": "/admin?page=1", "confirmed": "1"}
    )
    assert res.status_code == 302 and res.headers["Location"] == "/admin?page=1"
    db.session.expire_all()
    assert db.session.get(Account, user.id).is_enabled is False
    html = client.get("/admin").get_data(as_text=True)
    assert "Account toggled disabled." in html and ">Enable</button>" in html
    # An outside `next` is ignored.
    res = client.post(
        f"/admin/accounts/{user.id}/active", data={"active": "1", "next": "https://evil.example"}
    )
    assert res.headers["Location"] == "/admin"

    yes, no = make_pending(username="yes"), make_pending(username="no")
    client.post(f"/admin/pending/{yes.id}/approve", data={"next": "/admin?tab=approval"})
    client.post(f"/admin/pending/{no.id}/reject", data={"reason": "Duplicate", "next": "/admin?tab=approval"})
    db.session.expire_all()
    assert db.session.get(Account, yes.id).status == AccountStatus.ACTIVE
    assert db.session.get(Account, no.id).rejection_reason == "Duplicate"
    html = client.get("/admin?tab=approval").get_data(as_text=True)
    assert "No pending accounts." in html
    again = client.post(f"/admin/pending/{yes.id}/approve", follow_redirects=True).get_data(as_text=True)
    assert "Only accounts awaiting approval" in again
    assert len(list(db.session.scalars(select(AuditEntry)))) == 4


def test_disabling_yourself_is_refused_with_a_message(client, admin, admin_client):
    html = client.post(
        f"/admin/accounts/{admin.id}/active", data={"active": "0", "confirmed": "1"}, follow_redirects=True
    ).get_data(as_text=True)
    assert "You cannot disable your own account." in html
