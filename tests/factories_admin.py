"""Admin-feature factories: pending, disabled and signed-in accounts."""

from __future__ import annotations

from sibol.extensions import db
from sibol.models import Account, AccountStatus, RoleId
from tests.factories import make_account


def make_pending(**fields) -> Account:
    """A sign-up awaiting approval (e-mail verified); no password unless given."""
    fields.setdefault("password", None)
    fields.setdefault("role", RoleId.HOUSEHOLD)
    return make_account(status=AccountStatus.PENDING, **fields)


def make_disabled(**fields) -> Account:
    account = make_account(**fields)
    account.is_enabled = False
    db.session.commit()
    return account


def session_client(app, account: Account):
    """A test client whose page session belongs to `account` (no password check: fast)."""
    from sibol.identity.sessions import SESSION_KEY, open_session

    client = app.test_client()
    with app.test_request_context():
        raw, _row = open_session(account)
    db.session.commit()
    with client.session_transaction() as sess:
        sess["_user_id"] = account.get_id()
        sess["_fresh"] = True
        sess[SESSION_KEY] = raw
    return client


def fresh_identity_per_request(app) -> None:
    """Forget the previous request's caller at the start of each request.

    The `app` fixture keeps an app context pushed, and Flask reuses it for test-client requests,
    so `g` (where Flask-Login caches the user and the bearer hook its flag) outlives a request:
    without this a bearer call would leak its user into the next cookie call.
    """
    from flask import g

    def reset(_endpoint, _values):
        g.pop("_login_user", None)
        g.pop("sibol_bearer", None)

    app.url_value_preprocessors.setdefault(None, []).insert(0, reset)
