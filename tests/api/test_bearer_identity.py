"""A bearer request's account is made from one row (sibol/identity/tokens.py,), not loaded
through the ORM. These tests start every request with an empty session, as each request of a
real server does (the `app` fixture otherwise keeps one session, and its accounts, across
requests), and check that the account behaves as a loaded one: access, writes, lazy relations."""

from __future__ import annotations

import pytest
from flask import g
from sqlalchemy import event, select

from sibol.api.serializers import allowed_module_json
from sibol.extensions import db
from sibol.identity.tokens import account_for_token
from sibol.models import Account, Barangay, Module, ModuleId, RoleId
from tests.factories import make_account, token_for


@pytest.fixture
def fresh_session(app):
    """Each request gets a new session and no cached caller, like a request of gunicorn."""

    def reset(_endpoint, _values):
        g.pop("_login_user", None)
        g.pop("sibol_bearer", None)

    app.before_request_funcs.setdefault(None, []).insert(0, lambda: db.session.remove())
    app.url_value_preprocessors.setdefault(None, []).insert(0, reset)


@pytest.fixture
def statements(app):
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args):
        seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    yield seen
    event.remove(db.engine, "before_cursor_execute", count)


pytestmark = pytest.mark.usefixtures("fresh_session")


def bearer(account: Account) -> dict:
    token = token_for(account)
    db.session.remove()  # the test's own objects are detached from here on: keep ids, not objects
    return {"Authorization": f"Bearer {token}"}


def test_allowed_modules_are_the_accounts_modules_from_the_database(client):
    account = make_account(role=RoleId.OPERATOR, modules=[1, 3, 5])
    expected = [
        allowed_module_json(m) for m in db.session.scalars(select(Module).where(Module.id.in_([1, 3, 5])))
    ]
    res = client.get("/api/modules/allowed", headers=bearer(account))
    assert res.status_code == 200
    assert res.get_json() == expected


def test_a_bearer_read_is_one_statement(client, statements):
    account = make_account(role=RoleId.STAFF)
    headers = bearer(account)
    statements.clear()
    assert client.get("/api/modules/allowed", headers=headers).status_code == 200
    assert len(statements) == 1, statements


def test_module_access_is_checked_from_the_row(client):
    account = make_account(role=RoleId.STAFF, modules=[int(ModuleId.DASHBOARD)])
    headers = bearer(account)
    assert client.get("/api/dashboard/summary", headers=headers).status_code == 200
    res = client.get("/api/machines", headers=headers)
    assert res.status_code == 403
    assert res.get_json()["module"] == int(ModuleId.MACHINES)


def test_disabled_account_and_deactivated_barangay_are_refused(client):
    disabled = make_account(role=RoleId.STAFF)
    in_closed = make_account(role=RoleId.STAFF)
    disabled_id, in_closed_id = disabled.id, in_closed.id
    headers_closed = {"Authorization": f"Bearer {token_for(in_closed)}"}
    headers_disabled = bearer(disabled)
    assert client.get("/api/modules/allowed", headers=headers_closed).status_code == 200

    db.session.get(Account, disabled_id).is_enabled = False
    closed = db.session.get(Barangay, db.session.get(Account, in_closed_id).barangay_id)
    closed.is_active = False
    db.session.commit()
    db.session.remove()

    assert client.get("/api/modules/allowed", headers=headers_disabled).status_code == 401
    assert client.get("/api/modules/allowed", headers=headers_closed).status_code == 401


def test_a_write_through_the_bearers_account_is_saved(client):
    account = make_account(role=RoleId.STAFF)
    account_id = account.id
    res = client.put("/api/me/language", json={"language": "fil"}, headers=bearer(account))
    assert res.status_code == 200
    db.session.remove()
    assert db.session.get(Account, account_id).language == "fil"


def test_relations_load_when_read(client):
    """/api/me reads the role and barangay, which the row does not carry."""
    account = make_account(role=RoleId.OPERATOR)
    barangay_name = db.session.get(Barangay, account.barangay_id).name
    res = client.get("/api/me", headers=bearer(account))
    assert res.status_code == 200
    text = res.get_data(as_text=True)
    assert '"Operator"' in text
    assert barangay_name in text


def test_changing_modules_in_the_request_changes_the_access_read_after(app):
    account = make_account(role=RoleId.STAFF, modules=[1, 2])
    account_id = account.id
    token = token_for(account)
    db.session.remove()
    with app.test_request_context("/api/modules/allowed", headers={"Authorization": f"Bearer {token}"}):
        me = account_for_token(token)
        assert me is not None and "modules" not in me.__dict__  # made from the row, not loaded
        assert me.module_ids == {1, 2}
        me.modules = list(db.session.scalars(select(Module).where(Module.id.in_([2, 6]))))
        assert me.module_ids == {2, 6}
        db.session.commit()
        assert me.module_ids == {2, 6}
    db.session.remove()
    assert db.session.get(Account, account_id).module_ids == {2, 6}
