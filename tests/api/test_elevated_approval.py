"""Elevated approval: a sign-up that asked for Admin shows it prominently and
needs a second confirmation naming the role; it can be approved with another role instead."""

from __future__ import annotations

import json

from sqlalchemy import select

from sibol.extensions import db
from sibol.models import AccountStatus, RoleId
from sibol.models.admin import AuditEntry
from tests.factories import make_admin
from tests.factories_admin import make_pending


def approve_url(account) -> str:
    return f"/api/admin/pending-accounts/{account.id}/approve"


def test_admin_request_without_confirmation_is_refused_and_stays_pending(client, api_headers):
    h = api_headers(make_admin())
    asker = make_pending(username="wants.admin", role=RoleId.ADMIN)
    for body in (None, {"role": 1}, {"role": 1, "confirmRole": "yes"}):
        res = (
            client.post(approve_url(asker), json=body, headers=h)
            if body
            else client.post(approve_url(asker), headers=h)
        )
        assert res.status_code == 400 and res.json["field"] == "confirmRole"
        assert res.json["requestedRole"] == 1 and "asked for the Admin role" in res.json["message"]
    db.session.refresh(asker)
    assert asker.status == AccountStatus.PENDING


def test_admin_request_approved_with_the_role_named(client, api_headers):
    h = api_headers(make_admin())
    asker = make_pending(username="wants.admin", role=RoleId.ADMIN)
    res = client.post(approve_url(asker), json={"role": 1, "confirmRole": "admin"}, headers=h)
    assert res.status_code == 200, res.json
    assert res.json["user"]["Roles"] == 1 and res.json["user"]["Access"] == [1, 2, 3, 4, 5, 6]


def test_admin_request_approved_with_another_role_gets_that_roles_modules(client, api_headers):
    admin = make_admin()
    asker = make_pending(username="wants.admin", role=RoleId.ADMIN)
    res = client.post(approve_url(asker), json={"role": 3}, headers=api_headers(admin))
    assert res.status_code == 200, res.json
    assert res.json["user"]["Roles"] == 3 and res.json["user"]["Access"] == [1, 2, 3, 4, 5]
    entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "approve"))
    assert json.loads(entry.details) == {"role": 3, "requestedRole": 1}


def test_any_approval_may_pick_a_role_but_admin_always_needs_the_confirmation(client, api_headers):
    h = api_headers(make_admin())
    household = make_pending(username="house")
    refused = client.post(approve_url(household), json={"role": 1}, headers=h)
    assert refused.status_code == 400 and refused.json["field"] == "confirmRole"
    res = client.post(approve_url(household), json={"role": 2}, headers=h)
    assert res.status_code == 200 and res.json["user"]["Access"] == [1, 2, 3, 4, 5]
    assert client.post(approve_url(make_pending()), json={"role": 9}, headers=h).status_code == 400


def test_approval_page_shows_the_request_and_needs_the_typed_role(client, login):
    login(make_admin(username="boss"))
    asker = make_pending(username="wants.admin", role=RoleId.ADMIN)
    html = client.get("/admin?tab=approval").get_data(as_text=True)
    assert "Requests Admin: all six modules" in html and f'id="confirm-role-{asker.id}"' in html
    url = f"/admin/pending/{asker.id}/approve"
    res = client.post(url, data={"role": "1", "next": "/admin?tab=approval"}, follow_redirects=True)
    assert "asked for the Admin role" in res.get_data(as_text=True)
    db.session.refresh(asker)
    assert asker.status == AccountStatus.PENDING
    res = client.post(url, data={"role": "1", "confirm_role": "Admin", "next": "/admin?tab=approval"})
    assert res.status_code == 302
    db.session.refresh(asker)
    assert asker.status == AccountStatus.ACTIVE and 6 in asker.module_ids
