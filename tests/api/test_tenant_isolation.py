"""Tenant isolation (part 2): an Admin of barangay A never reaches barangay B's records.

Two barangays get a full set of records (tests/api/tenant_world.py). The walk takes every rule of
app.url_map with an id in its path, fills in B's ids and calls it as A's Admin with each method
the rule allows (writes with a plausible body): every answer is a 404 (JSON under /api, the
404 page otherwise) and no stored row changes. A rule whose id the walk cannot map fails the
test, so a new route cannot slip past. Every list, search and export (and every page) is read
as A's Admin and must never show B's marker.
"""

from __future__ import annotations

import pytest
from werkzeug.routing import Rule

from sibol.models import RoleId
from tests.api.tenant_walk import MISSING_ID, Caller, b_paths, id_rules, is_api, same_page, walk
from tests.api.tenant_world import MARK_A, MARK_B
from tests.factories import make_account

pytestmark = pytest.mark.usefixtures("fresh_identity")


def test_every_rule_with_an_id_maps_to_a_kind_of_record(app, world):
    _, b = world
    unmapped = []
    for rule in id_rules(app):
        try:
            b_paths(rule, b)
        except LookupError as err:
            unmapped.append(str(err))
    assert unmapped == [], "routes the isolation walk cannot map: " + "; ".join(unmapped)


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
