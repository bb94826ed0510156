"""Admin form posts and cookie-authenticated API writes need the CSRF token."""

from __future__ import annotations

import re

import pytest

from sibol.extensions import db
from sibol.models import Account
from tests.factories import make_account, make_admin
from tests.factories_admin import session_client


@pytest.fixture
def app_overrides():
    return {"WTF_CSRF_ENABLED": True}


pytestmark = pytest.mark.usefixtures("fresh_identity")


def test_form_post_without_token_is_refused_and_with_it_works(app):
    admin, user = make_admin(), make_account()
    client = session_client(app, admin)
    assert client.post(f"/admin/accounts/{user.id}/active", data={"active": "0"}).status_code == 400
    db.session.expire_all()
    assert db.session.get(Account, user.id).is_enabled is True
    html = client.get("/admin").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    res = client.post(
        f"/admin/accounts/{user.id}/active", data={"active": "0", "csrf_token": token, "confirmed": "1"}
    )
    assert res.status_code == 302
    db.session.expire_all()
    assert db.session.get(Account, user.id).is_enabled is False


def test_cookie_api_write_needs_the_header_bearer_does_not(app, api_headers):
    admin, user = make_admin(), make_account()
    client = session_client(app, admin)
    res = client.patch(f"/api/admin/{user.id}/active", json={"isActive": False})
    assert res.status_code == 400 and res.is_json
    html = client.get("/admin").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)
    res = client.patch(
        f"/api/admin/{user.id}/active", json={"isActive": False}, headers={"X-CSRFToken": token}
    )
    assert res.status_code == 200
    res = app.test_client().patch(
        f"/api/admin/{user.id}/active", json={"isActive": True}, headers=api_headers(admin)
    )
    assert res.status_code == 200
