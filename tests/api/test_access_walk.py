"""Walk every registered route (Flask's url_map) as every kind of caller.

Each route declares its access (sibol/identity/access.py); this walk computes what each caller must get
from that declaration and checks the server answers so. A route added later without a
declaration fails `test_every_route_declares_its_access`; one that forgets to enforce it fails
the walk.
"""

from __future__ import annotations

import pytest
from werkzeug.routing import Rule
from werkzeug.routing.converters import NumberConverter

from sibol.extensions import db
from sibol.identity.access import PUBLIC, access_of, allows
from sibol.models import AccountStatus, ModuleId, RoleId
from tests.factories import make_account, token_for
from tests.factories_admin import (
    make_disabled,
    make_pending,
    session_client,
)

DUMMY_ID = 987654  # ids in URL rules: an id no row has, so unsafe methods change nothing
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
CALLERS = ("anonymous", "pending", "disabled", "household", "operator", "staff", "admin")
ROLE_OF = {
    "household": RoleId.HOUSEHOLD,
    "operator": RoleId.OPERATOR,
    "staff": RoleId.STAFF,
    "admin": RoleId.ADMIN,
}


pytestmark = pytest.mark.usefixtures("fresh_identity")


def url_for_rule(rule: Rule) -> str:
    """The rule's path with every variable filled by a dummy value its converter accepts."""
    values = {}
    for name in rule.arguments:
        found = rule._converters[name]  # noqa: SLF001 - werkzeug exposes no API
        converter = type(found).__name__
        if isinstance(found, NumberConverter):
            values[name] = DUMMY_ID
        elif converter == "UUIDConverter":
            values[name] = "00000000-0000-0000-0000-000000000000"
        elif converter == "AnyConverter":
            values[name] = next(iter(rule._converters[name].items))  # noqa: SLF001
        elif converter == "PathConverter":
            values[name] = "no-such-file.txt"
        else:
            values[name] = "no-such-thing"
    _, path = rule.build(values, append_unknown=False)
    return path


def walked_rules(app) -> list[tuple[Rule, str]]:
    rules = []
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods & set(METHODS)):
            rules.append((rule, method))
    return rules


def make_caller(kind: str):
    if kind == "anonymous":
        return None
    if kind == "pending":
        return make_pending(password="Sib0l-pass!")
    if kind == "disabled":
        return make_disabled(role=RoleId.ADMIN)
    return make_account(role=ROLE_OF[kind])


def expected(access, caller, method: str) -> str:
    """'login' (page: 302 to /login; API: 401), 'forbidden' (403), 'allowed' (neither), 'any'.
    Whether a role may act inside a module is sibol/identity/permissions.py's table; tests/api/
    test_household_roles.py checks that table against the issue's rules."""
    active = caller is not None and caller.status == AccountStatus.ACTIVE and caller.is_enabled
    if access.kind == PUBLIC:
        return "any"
    if not active:
        return "login"
    return "allowed" if allows(access, caller, method) else "forbidden"


def request_as(app, caller, method: str, path: str):
    """API routes with a fresh bearer token (a walk may revoke one); pages with a session."""
    is_api = path == "/api" or path.startswith("/api/")
    headers = {}
    if caller is not None:
        db.session.refresh(caller)  # an earlier request (a logout) may have moved its session epoch
    if caller is not None and is_api:
        headers["Authorization"] = f"Bearer {token_for(caller)}"
        client = app.test_client()
    elif caller is not None:
        client = session_client(app, caller)
    else:
        client = app.test_client()
    return client.open(path, method=method, headers=headers, follow_redirects=False)


def test_every_route_declares_its_access(app):
    undeclared = [
        f"{rule.rule} ({rule.endpoint})"
        for rule in app.url_map.iter_rules()
        if access_of(rule.endpoint, app) is None
    ]
    assert undeclared == [], "routes without @public/@signed_in/@module_required: " + ", ".join(undeclared)


def test_admin_routes_need_the_admin_module(app):
    rules = [
        r
        for r in app.url_map.iter_rules()
        if r.rule == "/admin" or r.rule.startswith(("/admin/", "/api/admin/"))
    ]
    paths = {r.rule for r in rules}
    # A minimal sanity set: the walk must see the admin screen and its API.
    assert {
        "/admin",
        "/api/admin/accounts",
        "/api/admin/create",
        "/api/admin/pending-accounts/<int:account_id>/approve",
    } <= paths
    for rule in rules:
        access = access_of(rule.endpoint, app)
        assert access is not None and access.kind == "module", rule.rule
        assert access.module == ModuleId.ADMIN, rule.rule


@pytest.mark.parametrize("kind", CALLERS)
def test_route_walk(app, kind):
    caller = make_caller(kind)
    walked, wrong = 0, []
    for rule, method in walked_rules(app):
        access = access_of(rule.endpoint, app)
        if access is None:
            continue  # reported by test_every_route_declares_its_access
        path = url_for_rule(rule)
        is_api = path == "/api" or path.startswith("/api/")
        want = expected(access, caller, method)
        res = request_as(app, caller, method, path)
        walked += 1
        status = res.status_code
        got_ok = True
        if status >= 500:
            got_ok = False
        elif want == "login" and is_api:
            got_ok = status == 401 and res.is_json
        elif want == "login":
            got_ok = status == 302 and "/login" in res.headers.get("Location", "")
        elif want == "forbidden":
            got_ok = status == 403
        elif want == "allowed":
            sent_to_login = status == 302 and "/login" in res.headers.get("Location", "")
            got_ok = status not in (401, 403) and not sent_to_login
        if not got_ok:
            wrong.append(f"{method} {path} [{access.kind} {access.module or ''}] -> {status}, want {want}")
    assert walked >= 20, "the walk found too few routes"
    assert wrong == [], f"{kind}: " + "; ".join(wrong)


def test_disabled_session_lands_on_login_with_a_message(app):
    disabled = make_disabled(role=RoleId.ADMIN)
    client = session_client(app, disabled)
    res = client.get("/admin")
    assert res.status_code == 302 and "/login" in res.headers["Location"]
    page = client.get(res.headers["Location"]).get_data(as_text=True)
    assert "Your account has been disabled. Contact your barangay administrator." in page
