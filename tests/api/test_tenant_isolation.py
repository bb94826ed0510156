"""Tenant isolation (part 2): an Admin of barangay A never reaches barangay B's records.

Two barangays get a full set of records (tests/api/tenant_world.py). The walk takes every rule of
app.url_map with an id in its path, fills in B's ids and calls it as A's Admin with each method
the rule allows (writes with a plausible body): every answer is a 404 (JSON under /api, the
404 page otherwise) and no stored row changes. A rule whose id the walk cannot map fails the
test, so a new route cannot slip past. Every list, search and export (and every page) is read
as A's Admin and must never show B's marker.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from sqlalchemy import select
from werkzeug.routing import Rule

from sibol.extensions import db
from sibol.models import Account, RoleId
from tests.api.tenant_world import MARK_A, MARK_B, Tenant, build_world
from tests.api.test_access_walk import METHODS
from tests.factories import make_account
from tests.factories_admin import session_client
from tests.factories_maintenance import due_in

pytestmark = pytest.mark.usefixtures("fresh_identity")

MISSING_ID = 987654  # an id no row has

# Tables that any request may write for its own caller (sign-in records, tokens, lock counters).
VOLATILE = {"api_tokens", "page_sessions", "sign_ins", "login_failures"}

# Rules with a path variable that is not a barangay-owned record, and why.
NOT_TENANT_IDS = {
    "static": "built assets, the same for everyone",
    "api.auth.check_status": "public, before sign-in: a person checks their own sign-up by username",
    "api.auth.verify_email": "public, addressed by a secret one-time token",
    # A device's routes: its key names the machine, so another machine's command id is a 404
    # for it (tests/api/test_commands_api.py, test_sibol_device_api.py); no account reaches them.
    "api.devices.command_result": "a device's answer, authenticated by its key",
    "api.sibol_device.pending_commands": "a device's poll; the path's deviceId is echoed, not trusted",
    "api.sibol_device.command_executed": "a device's answer, authenticated by its key",
}

# Path variable -> B's ids of that kind (each is tried).
ID_KINDS: dict[str, Callable[[Tenant], list]] = {
    "account_id": lambda t: [t.staff.id, t.pending.id, t.disabled.id, t.admin.id],
    "machine_id": lambda t: [t.machine.id],
    "member_id": lambda t: [t.member.id],
    "schedule_id": lambda t: [t.schedule.id],
    "reward_id": lambda t: [t.reward.id],
    "claim_id": lambda t: [t.open_claim.id, t.redeemed_claim.id],
    "code": lambda t: [t.open_claim.code],
    "request_id": lambda t: [t.request.id],
    "attachment_id": lambda t: [t.attachment.id],
    "alert_id": lambda t: [t.alert.id],
    "notification_id": lambda t: [t.notification.id],
    "barangay_id": lambda t: [t.barangay.id],
    "command_id": lambda t: [t.command.id],
}


@pytest.fixture
def world(app):
    return build_world(app)


def body_for(a: Tenant) -> dict:
    """One plausible body for every write the walk makes: each route takes the fields it knows.
    Ids inside the body are A's own, so only the id in the path is foreign."""
    return {
        "name": "Renamed",
        "Name": "Renamed",
        "areaId": a.area.id,
        "area": a.area.name,
        "status": "Available",
        "remarks": "Checked",
        "reason": "Duplicate",
        "dueDate": due_in(9),
        "assignedTo": a.operator.id,
        "memberId": a.member.id,
        "reward": "Renamed",
        "points": 10,
        "maintenancePerson": "Juan",
        "collectorContact": "0917 123 4567",
        "dateOfCollection": "2026-12-01",
        "firstName": "Renamed",
        "lastName": "Renamed",
        "FirstName": "Renamed",
        "LastName": "Renamed",
        "username": "renamed_user",
        "email": "renamed@example.test",
        "role": 2,
        "roleId": 2,
        "isActive": False,
        "IsActive": False,
        "active": "0",
        "accountId": a.household.id,
        "account_id": a.household.id,
        "chemicalInput": "Lime",
        "stage": "Filtering",
        "value": "1",
        "units": "kg",
        "personInCharge": "Juan",
        "startDate": "2026-01-06",
        "confirmed": "1",
        "wasteKg": "2.5",
    }


# Where the one body above does not pass a route's own checks, the fields that do.
BODY_FOR = {
    "api.machines.update_machine": {"status": None},
    "machines.update_machine": {"status": ""},
    "api.machines.add_chemical_additive": {"area": "Package 1"},
    "api.machines.add_waste_container": {"area": "Package 2", "status": "Full"},
    "api.household.update_schedule": {"status": "Pending"},
    "household.edit_schedule": {"status": "Pending"},
    "telemetry.update_thresholds": {"temperature_c_min": "1", "temperature_c_max": "90"},
}

# Routes that refuse any field they do not know take exactly these.
BODY_ONLY = {"api.telemetry.update_thresholds": {"temperature_c": {"min": 1, "max": 90}}}

# Query strings a GET needs to pass its own checks.
QUERY_FOR = {"api.telemetry.series": "?metric=temperature_c&bucket=1h"}

# Routes made for one kind of caller (a resident's own household) are walked as A's account of
# that kind; the rest as A's Admin.
RESIDENT_ROUTES = ("/api/me/", "/household/my/")


def snapshot() -> dict[str, list]:
    db.session.expire_all()
    rows = {}
    for table in db.metadata.sorted_tables:
        if table.name in VOLATILE:
            continue
        rows[table.name] = sorted(
            (tuple(map(repr, r)) for r in db.session.execute(select(table))), key=lambda r: r[0]
        )
    return rows


def changed_tables(before: dict, after: dict) -> list[str]:
    return [name for name in before if before[name] != after[name]]


def is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


class Caller:
    """A's Admin: bearer token for /api, a page session for pages."""

    def __init__(self, app, account: Account):
        from tests.factories import token_for

        self.app, self.account = app, account
        self.bearer = {"Authorization": f"Bearer {token_for(account)}"}
        self.pages = session_client(app, account)
        self.api = app.test_client()

    def open(self, method: str, path: str, *, body: dict | None = None, headers: dict | None = None):
        db.session.refresh(self.account)
        if is_api(path):
            return self.api.open(path, method=method, json=body, headers={**self.bearer, **(headers or {})})
        form = {k: str(v) for k, v in (body or {}).items() if not isinstance(v, dict)}
        return self.pages.open(path, method=method, data=form or None, headers=headers or {})


def id_rules(app) -> list[Rule]:
    return [r for r in app.url_map.iter_rules() if r.arguments]


def b_paths(rule: Rule, b: Tenant) -> list[str]:
    """The rule's path once per id of B's of the rule's kind; [] when the rule is exempt."""
    if rule.endpoint in NOT_TENANT_IDS:
        return []
    names = sorted(rule.arguments)
    unknown = [n for n in names if n not in ID_KINDS]
    if unknown:
        raise LookupError(f"{rule.rule} ({rule.endpoint}): no id kind for {', '.join(unknown)}")
    if len(names) > 1:  # a record under its parent (a machine's command): B's of each kind
        _, path = rule.build({n: ID_KINDS[n](b)[0] for n in names}, append_unknown=False)
        return [path]
    name = names[0]
    paths = []
    for value in ID_KINDS[name](b):
        _, path = rule.build({name: value}, append_unknown=False)
        paths.append(path)
    return paths


def test_every_rule_with_an_id_maps_to_a_kind_of_record(app, world):
    _, b = world
    unmapped = []
    for rule in id_rules(app):
        try:
            b_paths(rule, b)
        except LookupError as err:
            unmapped.append(str(err))
    assert unmapped == [], "routes the isolation walk cannot map: " + "; ".join(unmapped)


FLASH = re.compile(r'<p class="banner[^"]*"[^>]*>(.*?)</p>', re.S)


_PER_RENDER = re.compile(rb'(name="(?:csrf_token|next)"[^>]*value=")[^"]*"')


def same_page(one: bytes, other: bytes) -> bool:
    """Two answers say the same thing: equal but for what the top bar's language switcher
    carries per render (a freshly signed CSRF token, and the path to return to, which is the
    requested URL itself)."""
    return _PER_RENDER.sub(rb'\1"', one) == _PER_RENDER.sub(rb'\1"', other)


def redirect_answer(caller: Caller, res, path: str) -> tuple[str, str]:
    """(where a redirect goes, with the path's id as {id}; the flash messages shown there)."""
    if res.status_code != 302:
        return (f"status {res.status_code}", "")
    location = res.headers["Location"]
    page = caller.open("GET", location).data.decode(errors="replace")
    the_id = path.rstrip("/").split("/")[-1] if path.rstrip("/").split("/")[-1].isdecimal() else None
    the_id = the_id or next((p for p in path.split("/") if p.isdecimal()), "")
    return (location.replace(f"={the_id}", "={id}"), " | ".join(m.strip() for m in FLASH.findall(page)))


def missing_path(rule: Rule) -> str:
    _, path = rule.build(dict.fromkeys(rule.arguments, MISSING_ID), append_unknown=False)
    return path


def walk(app, world, want_api: bool, role: str = "admin") -> tuple[int, list[str]]:
    """Every rule with an id, filled in with B's ids, as A's account of `role` (the resident's
    own routes as A's Household account)."""
    a, b = world
    admin, resident = Caller(app, getattr(a, role)), Caller(app, a.household)
    generic = body_for(a)
    before = snapshot()
    walked, wrong = 0, []
    for rule in id_rules(app):
        if rule.endpoint in NOT_TENANT_IDS or is_api(rule.rule) != want_api:
            continue
        caller = resident if rule.rule.startswith(RESIDENT_ROUTES) else admin
        body = BODY_ONLY.get(rule.endpoint) or {**generic, **BODY_FOR.get(rule.endpoint, {})}
        for path in b_paths(rule, b):
            for method in sorted(rule.methods & set(METHODS)):
                if method == "GET":
                    res = caller.open(method, path + QUERY_FOR.get(rule.endpoint, ""))
                else:
                    res = caller.open(method, path, body=body)
                walked += 1
                text = res.data.decode(errors="replace")
                ok = res.status_code == 404 and res.is_json == want_api
                if res.status_code == 403:
                    # Refused by role before any lookup (the City Admin's barangay pages): fine
                    # only when an id that does not exist gets the very same answer.
                    missing = caller.open(method, missing_path(rule), body=None if method == "GET" else body)
                    ok = missing.status_code == 403 and same_page(missing.data, res.data)
                elif res.status_code == 302 and not want_api and method == "POST":
                    # A form that refuses by redirecting says why in a flash on the next page:
                    # acceptable only when that is word for word what an id that does not
                    # exist gets (nothing tells A that B's record exists).
                    answer = redirect_answer(caller, res, path)
                    other = missing_path(rule)
                    missing = redirect_answer(caller, caller.open(method, other, body=body), other)
                    text = f"{answer} where a missing id gets {missing}"
                    ok = answer == missing
                if MARK_B.lower() in text.lower():
                    wrong.append(f"{method} {path} -> {res.status_code} and shows {MARK_B}")
                elif not ok:
                    wrong.append(f"{method} {path} -> {res.status_code} {text[:120]!r}")
    after = snapshot()
    changed = changed_tables(before, after)
    if changed:
        wrong.append("rows changed in: " + ", ".join(changed))
    return walked, wrong


def test_api_routes_with_b_ids_are_404_for_a_admin(app, world):
    walked, wrong = walk(app, world, want_api=True)
    assert walked >= 40, "the walk found too few routes"
    assert wrong == [], f"{len(wrong)} leaks:\n" + "\n".join(wrong)


def test_page_routes_with_b_ids_are_404_for_a_admin(app, world):
    walked, wrong = walk(app, world, want_api=False)
    assert walked >= 20, "the walk found too few routes"
    assert wrong == [], f"{len(wrong)} leaks:\n" + "\n".join(wrong)


# Lists, search and exports -------------------------------------------------------------------

# GET rules without an id that are not lists of records (sign-in flow, health, static schema).
NOT_LISTS = {"api.auth.google", "google.login", "google.authorized", "auth.logout"}

# The search term is a prefix of B's marker: a page that repeats the query in its search box
# shows the term, not the marker.
SEARCH_B = MARK_B[:7]
LIST_VARIANTS = (
    "",
    "?per_page=100",
    f"?q={SEARCH_B}",
    f"?q={SEARCH_B}&per_page=100",
    "?format=csv",
    f"?format=csv&q={SEARCH_B}",
)


# Lists with tabs or states: every one is read.
TABS = {
    "/admin": ("tab", ("accounts", "approval")),
    "/maintenance": ("tab", ("request", "pending", "complete")),
    "/api/maintenance/requests": ("tab", ("request", "pending", "complete")),
    "/household": ("tab", ("schedule", "leaderboard", "rewards", "claimed", "points")),
    "/api/alerts": ("state", ("open", "closed", "all")),
    "/sibol-machines/alerts": ("state", ("open", "closed", "all")),
}


def list_rules(app) -> list[Rule]:
    return [
        r
        for r in app.url_map.iter_rules()
        if not r.arguments and "GET" in r.methods and r.endpoint not in NOT_LISTS
    ]


def list_urls(rule: Rule) -> list[str]:
    name, values = TABS.get(rule.rule, (None, ("",)))
    urls = []
    for value in values:
        for variant in LIST_VARIANTS:
            query = "&".join(p for p in (f"{name}={value}" if name else "", variant.lstrip("?")) if p)
            urls.append(rule.rule + ("?" + query if query else ""))
    return urls


def read_all(app, caller: Caller, mark: str) -> tuple[int, list[str], set[str]]:
    """Reads every list in every variant; -> (responses read, leaks of `mark`, lists showing A's marker)."""
    read, leaks, shows_a = 0, [], set()
    for rule in list_rules(app):
        for url in list_urls(rule):
            for headers in ({}, {"Accept": "text/csv"}):
                res = caller.open("GET", url, headers=headers)
                read += 1
                text = res.data.decode(errors="replace")
                if res.status_code >= 500:
                    leaks.append(f"GET {url} {headers} -> {res.status_code}")
                if mark.lower() in text.lower():
                    leaks.append(f"GET {url} {headers} -> {res.status_code} shows {mark}")
                if MARK_A.lower() in text.lower():
                    shows_a.add(rule.rule)
    return read, leaks, shows_a


def test_alerts_list_only_the_callers_machines(app, world):
    """Alerts carry no names (the marker check cannot see them), so their machines are compared."""
    a, b = world
    caller = Caller(app, a.admin)
    for state in ("open", "all"):
        res = caller.open("GET", f"/api/alerts?state={state}")
        machines = {row["machineId"] for row in res.json["data"]}
        assert machines == {a.machine.id}, state


# Lists that hold barangay-owned rows: each must show A's rows to A's Admin (so the check for B's
# marker is not passed by a list that shows nothing) and, with ?barangay_id=<B>, answer 404.
SCOPED_LISTS = (
    "/api/admin/accounts",
    "/api/admin/pending-accounts",
    "/api/machines",
    "/api/maintenance/requests",
    "/api/household/rewards",
    "/api/household/schedules",
    "/api/household/leaderboard",
    "/api/notifications",
    "/admin",
    "/sibol-machines",
    "/maintenance",
    "/household",
)


def test_lists_search_and_exports_never_show_b_rows_to_a_admin(app, world):
    a, _ = world
    read, leaks, shows_a = read_all(app, Caller(app, a.admin), MARK_B)
    assert read > 100
    assert set(SCOPED_LISTS) - shows_a == set(), "lists that do not show A's own rows"
    assert leaks == [], f"{len(leaks)} leaks:\n" + "\n".join(leaks)


# The City Admin and the barangay filter ------------------------------------------------------

# Notifications belong to one account (a City Admin made now has none): not in these checks.
CITY_LISTS = [p for p in SCOPED_LISTS if p != "/api/notifications"]
SCOPED_API_LISTS = [p for p in SCOPED_LISTS if is_api(p)]


def shows(caller: Caller, path: str, mark: str, extra: str = "") -> bool:
    """Whether any tab of the list (100 rows a page) shows the marker."""
    tab = TABS.get(path)
    urls = [f"{path}?{tab[0]}={v}&per_page=100" for v in tab[1]] if tab else [f"{path}?per_page=100"]
    return any(
        mark.lower() in caller.open("GET", url + extra).data.decode(errors="replace").lower() for url in urls
    )


@pytest.fixture
def city_admin(world):
    return make_account(role=RoleId.CITY_ADMIN, username="city_admin", barangay_id=None)


def test_city_admin_sees_both_barangays(app, world, city_admin):
    city = Caller(app, city_admin)
    for path in CITY_LISTS:
        assert shows(city, path, MARK_A) and shows(city, path, MARK_B), path


def test_city_admin_with_the_filter_on_a_sees_only_a(app, world, city_admin):
    a, _ = world
    city = Caller(app, city_admin)
    res = city.open("POST", "/city/barangay-filter", body={"barangay_id": a.barangay.id, "next": "/admin"})
    assert res.status_code == 302 and res.headers["Location"].endswith("/admin")
    for path in CITY_LISTS:
        # Pages follow the filter kept in the session; /api takes ?barangay_id= per request.
        extra = f"&barangay_id={a.barangay.id}" if is_api(path) else ""
        assert shows(city, path, MARK_A, extra) and not shows(city, path, MARK_B, extra), path


def test_barangay_id_of_another_barangay_is_404_for_a_admin(app, world):
    a, b = world
    caller = Caller(app, a.admin)
    for path in SCOPED_API_LISTS + ["/api/dashboard/summary", "/api/maintenance/operators"]:
        res = caller.open("GET", f"{path}?barangay_id={b.barangay.id}")
        assert res.status_code == 404 and res.json["field"] == "barangay_id", path
        assert MARK_B.lower() not in res.data.decode().lower()
        missing = caller.open("GET", f"{path}?barangay_id={MISSING_ID}")
        assert missing.status_code == 404 and missing.json == res.json, path  # no hint B exists
        own = caller.open("GET", f"{path}?barangay_id={a.barangay.id}")
        assert own.status_code == 200, path
    # The City Admin's filter page is not for a barangay Admin, whatever the id.
    res = caller.open("POST", "/city/barangay-filter", body={"barangay_id": b.barangay.id})
    assert res.status_code == 403
    missing = caller.open("POST", "/city/barangay-filter", body={"barangay_id": MISSING_ID})
    assert same_page(missing.data, res.data)
