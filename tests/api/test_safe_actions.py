""", without JavaScript (test client): destructive actions answer a confirmation
page first and change nothing; confirmed, they act and offer Undo for a few seconds."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from sibol.extensions import db
from sibol.models import Account, RoleId, utcnow
from sibol.models.auth import UndoOffer
from sibol.models.household import HouseholdMember, RewardClaim
from sibol.models.maintenance import MaintenanceRequest
from tests.factories import make_account, make_admin
from tests.factories_household import make_member, make_reward
from tests.factories_maintenance import make_request


def hidden_fields(html: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', html))


def undo_form(html: str) -> tuple[str, dict[str, str]]:
    form = html.split('id="undo"', 1)[1].split("</form>", 1)[0]
    action = re.search(
        r'action="([^"]+)"', html.split('class="banner banner--info undo"', 1)[0].rsplit("<form", 1)[1]
    )
    assert action
    return action.group(1), hidden_fields(form)


def test_disable_asks_first_then_offers_undo(client, login):
    login(make_admin(first_name="Boss"))
    worker = make_account(role=RoleId.STAFF, first_name="Wanda", last_name="Cruz", username="wanda")
    res = client.post(f"/admin/accounts/{worker.id}/active", data={"active": "0", "next": "/admin"})
    html = res.get_data(as_text=True)
    assert res.status_code == 200 and '<h1 id="confirm-title">Disable Wanda Cruz?</h1>' in html
    assert "will be signed out everywhere" in html and 'href="/admin" id="confirm-cancel"' in html
    assert hidden_fields(html) | {"csrf_token": ""} == {
        "active": "0",
        "next": "/admin",
        "confirmed": "1",
        "csrf_token": "",
    }
    assert db.session.get(Account, worker.id).is_enabled  # nothing happened yet

    res = client.post(f"/admin/accounts/{worker.id}/active", data=hidden_fields(html), follow_redirects=True)
    html = res.get_data(as_text=True)
    db.session.expire_all()
    assert not db.session.get(Account, worker.id).is_enabled
    assert "wanda was disabled." in html and ">Undo</button>" in html
    action, fields = undo_form(html)
    res = client.post(action, data=fields, follow_redirects=True)
    db.session.expire_all()
    assert db.session.get(Account, worker.id).is_enabled
    # The used Undo banner goes away: the next page says it is enabled and offers nothing more.
    html = res.get_data(as_text=True)
    assert "Account wanda enabled." in html and 'id="undo"' not in html
    assert 'id="undo"' not in client.get("/admin").get_data(as_text=True)


def test_own_row_offers_no_disable(client, login):
    me = make_admin(first_name="Boss", username="boss")
    login(me)
    other = make_account(role=RoleId.STAFF, username="wanda")
    html = client.get("/admin").get_data(as_text=True)
    assert f'action="/admin/accounts/{other.id}/active"' in html
    assert f'action="/admin/accounts/{me.id}/active"' not in html
    # and the server refuses it anyway
    res = client.post(
        f"/admin/accounts/{me.id}/active", data={"active": "0", "confirmed": "1"}, follow_redirects=True
    )
    assert "You cannot disable your own account." in res.get_data(as_text=True)


def test_enable_needs_no_confirmation(client, login):
    login(make_admin())
    worker = make_account(is_enabled=False)
    assert client.post(f"/admin/accounts/{worker.id}/active", data={"active": "1"}).status_code == 302
    db.session.expire_all()
    assert db.session.get(Account, worker.id).is_enabled


@pytest.fixture
def staff(app):
    return make_account(role=RoleId.STAFF, first_name="Liza")


def status_of(req_id: int) -> str:
    db.session.expire_all()
    return db.session.get(MaintenanceRequest, req_id).status


def test_cancel_asks_first_and_can_be_undone_for_a_few_seconds(client, staff_client):
    req = make_request(issue="Pump leaks")
    res = client.post(f"/maintenance/requests/{req.id}/cancel", data={"remarks": "Duplicate", "dueDate": ""})
    html = res.get_data(as_text=True)
    assert res.status_code == 200 and f"Cancel request #{req.request_number}?" in html
    assert hidden_fields(html)["remarks"] == "Duplicate" and status_of(req.id) == "ongoing"
    assert f'href="/maintenance?request={req.id}" id="confirm-cancel"' in html

    res = client.post(
        f"/maintenance/requests/{req.id}/cancel", data=hidden_fields(html), follow_redirects=True
    )
    html = res.get_data(as_text=True)
    assert status_of(req.id) == "canceled" and ">Undo</button>" in html
    action, fields = undo_form(html)
    assert action == f"/maintenance/requests/{req.id}/undo-cancel"
    res = client.post(action, data=fields, follow_redirects=True)
    assert status_of(req.id) == "ongoing"
    assert f"Request #{req.request_number} is on-going again." in res.get_data(as_text=True)
    # The offer is used up: a second undo is refused and changes nothing.
    res = client.post(action, data=fields, follow_redirects=True)
    assert "too late to undo" in res.get_data(as_text=True) and status_of(req.id) == "ongoing"


def test_undo_after_the_window_is_refused(client, staff_client):
    req = make_request()
    client.post(f"/maintenance/requests/{req.id}/cancel", data={"remarks": "Wrong machine", "confirmed": "1"})
    db.session.execute(update(UndoOffer).values(expires_at=utcnow() - timedelta(seconds=1)))  # long after
    db.session.commit()
    res = client.post(f"/maintenance/requests/{req.id}/undo-cancel", follow_redirects=True)
    assert "too late to undo" in res.get_data(as_text=True) and status_of(req.id) == "canceled"


def test_complete_asks_first(client, staff_client):
    req = make_request()
    res = client.post(f"/maintenance/requests/{req.id}/complete", data={"remarks": "Fixed"})
    assert res.status_code == 200 and f"Complete request #{req.request_number}?" in res.get_data(as_text=True)
    assert status_of(req.id) == "ongoing"
    client.post(f"/maintenance/requests/{req.id}/complete", data={"remarks": "Fixed", "confirmed": "1"})
    assert status_of(req.id) == "completed"


def test_claim_asks_first_and_undo_returns_the_points(client, staff_client):
    rosa = make_member("Rosa Lim", points=800)
    rice = make_reward("Rice 5 kg", points=500)
    res = client.post(f"/household/rewards/{rice.id}/claims", data={"memberId": str(rosa.id)})
    html = res.get_data(as_text=True)
    assert res.status_code == 200 and "Claim Rice 5 kg for Rosa Lim?" in html
    assert "500 points will be taken from Rosa Lim&#39;s 800." in html
    assert db.session.scalar(select(RewardClaim)) is None

    res = client.post(f"/household/rewards/{rice.id}/claims", data=hidden_fields(html), follow_redirects=True)
    html = res.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(HouseholdMember, rosa.id).points == 300
    action, fields = undo_form(html)
    res = client.post(action, data=fields, follow_redirects=True)
    db.session.expire_all()
    assert db.session.get(HouseholdMember, rosa.id).points == 800
    assert db.session.scalar(select(RewardClaim)) is None
    assert "Claim undone; Rosa Lim has 800 points again." in res.get_data(as_text=True)
