"""Fixtures shared by the API and page tests (the Flask test client, no real servers)."""

from __future__ import annotations

import pytest

from sibol.models import Account, RoleId
from tests.factories import make_account
from tests.factories_admin import fresh_identity_per_request


@pytest.fixture
def fresh_identity(app) -> None:
    """Each request starts without the previous caller; for modules that mix bearer and cookie
    callers: `pytestmark = pytest.mark.usefixtures("fresh_identity")`."""
    fresh_identity_per_request(app)


@pytest.fixture
def staff(app) -> Account:
    """A staff account; a module may override it with one it names."""
    return make_account(role=RoleId.STAFF)


@pytest.fixture
def headers(api_headers, staff) -> dict:
    """Bearer headers of `staff`."""
    return api_headers(staff)


@pytest.fixture
def signed_in(client, login) -> Account:
    """A staff account signed in to the test client through the /login form."""
    user = make_account(role=RoleId.STAFF)
    login(user)
    return user
