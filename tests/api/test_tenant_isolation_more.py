"""Tenant isolation, the audit's second pass: what the path-id walk of
test_tenant_isolation.py cannot see.

- ids in a request's body or query string (an area, an assignee, a member, a reward, a claim
  code, a machine), not in its path;
- A's other roles (Barangay Staff, Operator, Household) walking every route with B's ids;
- figures that aggregate (dashboard, monthly report, leaderboard ranks): B's activity must not
  move any of A's numbers, though they carry no marker;
- a device key of A's machine posting readings.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from sibol.devices import keys
from sibol.extensions import db
from sibol.identity import tenancy
from sibol.models import Account, ClaimState, Machine
from sibol.models.household import HouseholdMember, Reward, RewardClaim
from sibol.models.machines import ChemicalAdditive, WasteContainer
from sibol.models.maintenance import MaintenanceRequest
from sibol.models.telemetry import Reading
from tests.api.tenant_walk import Caller, same_page, walk
from tests.api.tenant_world import MARK_B, Tenant
from tests.factories_household import make_member
from tests.factories_maintenance import due_in
from tests.factories_telemetry import device, healthy, iso

pytestmark = pytest.mark.usefixtures("fresh_identity")


# A's other roles walk every route with B's ids ------------------------------------------------


@pytest.mark.parametrize("role", ["staff", "operator", "household"])
@pytest.mark.parametrize("want_api", [True, False], ids=["api", "pages"])
def test_other_roles_of_a_get_404_for_b_ids(app, world, role, want_api):
    """The walk of test_tenant_isolation.py as A's Barangay Staff, Operator and Household: each
    answer is a 404, or (a route the role may not use) the very answer a missing id gets."""
    walked, wrong = walk(app, world, want_api=want_api, role=role)
    assert walked >= 20
    assert wrong == [], f"{len(wrong)} leaks:\n" + "\n".join(wrong)


# Ids in the body ------------------------------------------------------------------------------


def test_ids_of_b_in_a_request_body_are_refused(app, world):
    """Creating or changing A's own records while naming one of B's in the body (an area, an
    assignee, a member, an account, a reward, a claim code): refused, and nothing of B's
    changes or gets linked from A's rows."""
    a, b = world
    admin = Caller(app, a.admin)
    resident = Caller(app, a.household)
    tries = [
        (admin, "POST", "/api/machines", {"name": "Cross Digester", "areaId": b.area.id}),
        (admin, "PUT", f"/api/machines/{a.machine.id}", {"areaId": b.area.id}),
        (
            admin,
            "POST",
            "/api/maintenance/requests",
            {
                "assignedTo": b.operator.id,
                "issue": "Cross",
                "priority": "Urgent",
                "dueDate": due_in(5),
                "contactDetails": "0917 555 0101",
            },
        ),
        (admin, "POST", f"/api/maintenance/requests/{a.request.id}/assign", {"assignedTo": b.operator.id}),
        (admin, "POST", f"/api/household/rewards/{a.reward.id}/claims", {"memberId": b.member.id}),
        (admin, "PUT", f"/api/household/members/{a.member.id}/account", {"username": b.household.username}),
        (admin, "POST", "/api/household/claims/redeem", {"code": b.open_claim.code}),
        (admin, "POST", "/household/redeem", {"code": b.open_claim.code}),
        (
            admin,
            "POST",
            "/api/admin/create",
            {
                "firstName": "Cross",
                "lastName": "Over",
                "email": "cross@example.test",
                "role": 2,
                "barangayId": b.barangay.id,
                "Barangay_id": b.barangay.id,
            },
        ),
        (
            admin,
            "POST",
            "/admin/accounts",
            {
                "first_name": "Cross",
                "last_name": "Over",
                "email": "cross@example.test",
                "role": 2,
                "barangay": b.barangay.id,
                "access": 1,
            },
        ),
        (admin, "POST", f"/household/members/{a.member.id}/account", {"username": b.household.username}),
        (
            admin,
            "POST",
            "/sibol-machines/chemical-additives",
            {
                "machine": b.machine.id,
                "machine_id": b.machine.id,
                "chemicalInput": "Lime",
                "stage": "Filtering",
                "value": "1",
                "units": "kg",
                "personInCharge": "Juan",
            },
        ),
        (
            admin,
            "POST",
            "/sibol-machines/waste-containers",
            {
                "machine": b.machine.id,
                "machine_id": b.machine.id,
                "status": "Full",
            },
        ),
        (resident, "POST", "/api/me/household/claims", {"rewardId": b.reward.id}),
        (resident, "POST", "/household/my/claims", {"rewardId": b.reward.id, "reward_id": b.reward.id}),
    ]
    wrong = []
    for caller, method, path, body in tries:
        res = caller.open(method, path, body=body)
        text = res.data.decode(errors="replace").lower()
        for value in body.values():  # a form shown again with what was typed (B's username)
            text = text.replace(str(value).lower(), "")
        if MARK_B.lower() in text:
            wrong.append(f"{method} {path} -> {res.status_code} shows {MARK_B}")
        elif res.status_code < 300:
            wrong.append(f"{method} {path} -> {res.status_code} accepted B's id: {text[:200]!r}")
    db.session.expire_all()
    with tenancy.unscoped():
        # Nothing of A's now points at B's rows.
        crossed = []
        if db.session.scalar(
            select(Machine.id).where(Machine.area_id == b.area.id, Machine.barangay_id == a.barangay.id)
        ):
            crossed.append("a machine of A in B's area")
        if db.session.scalar(
            select(MaintenanceRequest.id).where(
                MaintenanceRequest.barangay_id == a.barangay.id,
                MaintenanceRequest.assignee_id.in_([x.id for x in b.accounts]),
            )
        ):
            crossed.append("a request of A assigned to B's operator")
        if db.session.scalar(
            select(HouseholdMember.id).where(
                HouseholdMember.barangay_id == a.barangay.id,
                HouseholdMember.account_id.in_([x.id for x in b.accounts]),
            )
        ):
            crossed.append("a member of A linked to B's account")
        b_rows = {x.id for x in b.accounts}
        moved = db.session.scalars(
            select(Account.username).where(Account.id.in_(b_rows), Account.barangay_id != b.barangay.id)
        ).all()
        crossed += [f"account {u} moved" for u in moved]
        # Page forms answer a success with a redirect too: the rows say what happened.
        for model in (ChemicalAdditive, WasteContainer):
            if db.session.scalar(
                select(model.id).where(model.machine_id == b.machine.id, model.barangay_id != b.barangay.id)
            ):
                crossed.append(f"a {model.__name__} of A on B's machine")
        if (
            db.session.scalar(select(RewardClaim.state).where(RewardClaim.id == b.open_claim.id))
            != ClaimState.OPEN
        ):
            crossed.append("B's open claim was redeemed from A")
        if db.session.scalar(
            select(RewardClaim.id).where(
                RewardClaim.reward_id == b.reward.id, RewardClaim.barangay_id != b.barangay.id
            )
        ):
            crossed.append("a claim of A on B's reward")
        if db.session.scalar(
            select(RewardClaim.id).where(
                RewardClaim.member_id == b.member.id,
                RewardClaim.id.not_in([b.open_claim.id, b.redeemed_claim.id]),
            )
        ):
            crossed.append("a claim for B's member made from A")
        if db.session.scalar(
            select(Account.barangay_id).where(Account.email == "cross@example.test")
        ) not in (None, a.barangay.id):
            crossed.append("an account made by A's Admin in B")
    wrong += crossed
    assert wrong == [], "\n".join(wrong)


# Ids in the query string ----------------------------------------------------------------------


def test_ids_of_b_in_the_query_string_show_nothing_of_b(app, world):
    a, b = world
    admin = Caller(app, a.admin)
    m, s, r = b.machine.id, b.schedule.id, b.request
    urls = [
        f"/sibol-machines?machine={m}",
        f"/sibol-machines?edit={m}",
        f"/sibol-machines?tab=chemical-additives&machine={m}",
        f"/sibol-machines?tab=waste-container&machine={m}",
        f"/sibol-machines?tab=telemetry&machine={m}",
        f"/sibol-machines?tab=device&machine={m}",
        f"/sibol-machines/alerts?machine={m}",
        f"/sibol-machines/alerts?state=all&machine={m}",
        f"/api/alerts?machine={m}",
        f"/api/alerts?state=all&machine={m}",
        f"/api/alerts?state=all&machine={m}&format=csv",
        f"/household?tab=schedule&edit={s}",
        f"/maintenance?request={r.request_number}",
        f"/maintenance?request={r.id}",
        f"/maintenance?tab=pending&request={r.request_number}",
    ]
    wrong = []
    for url in urls:
        res = admin.open("GET", url)
        text = res.data.decode(errors="replace")
        if res.status_code >= 500 or MARK_B.lower() in text.lower():
            wrong.append(f"GET {url} -> {res.status_code}")
    assert wrong == [], "\n".join(wrong)


# Figures --------------------------------------------------------------------------------------


FIGURES = (
    "/api/dashboard/summary",
    "/api/reports/monthly",
    "/api/household/leaderboard?per_page=100",
    "/api/machines?per_page=100",
    "/api/household/claims?per_page=100",
)


def figures_of(caller: Caller) -> dict:
    out = {}
    for path in FIGURES:
        res = caller.open("GET", path)
        assert res.status_code == 200, (path, res.status_code)
        out[path] = res.json
    return out


def _b_gets_busy(app, b: Tenant) -> None:
    """More of everything in B: readings with power and weight, collections, a richer member,
    a maintenance request, an energy reading."""
    with tenancy.scoped(b.barangay.id):
        raw = keys.issue_key(b.machine.id, actor_id=None)
    client = app.test_client()
    readings = [
        {"ts": iso(m), **healthy(weight_kg=400.0, voltage_v=240.0, current_a=50.0)} for m in (1, 2, 3)
    ]
    res = client.post("/api/telemetry", json={"readings": readings}, headers=device(raw))
    assert res.status_code == 202, res.get_data(as_text=True)
    with tenancy.scoped(b.barangay.id):
        make_member(f"{b.mark} Richest", points=900_000, barangay=b.barangay.name)
        db.session.commit()
    token_b = {"Authorization": f"Bearer {_token(b.admin)}"}
    res = client.post(
        "/api/dashboard/waste-collections",
        json={"street": f"{b.mark} Street", "weightKg": 75, "collectedOn": "2026-01-11"},
        headers=token_b,
    )
    res = client.post(
        f"/api/household/rewards/{b.reward.id}/claims", json={"memberId": b.member.id}, headers=token_b
    )
    assert res.status_code < 300, res.get_data(as_text=True)
    res = client.post(
        "/api/maintenance/requests",
        json={
            "assignedTo": b.operator.id,
            "issue": f"{b.mark} second",
            "priority": "Urgent",
            "dueDate": due_in(3),
            "contactDetails": "0917 555 0101",
        },
        headers=token_b,
    )
    assert res.status_code < 300, res.get_data(as_text=True)


def _token(account) -> str:
    from tests.factories import token_for

    return token_for(account)


def test_b_activity_moves_none_of_a_figures(app, world):
    """Dashboards, the monthly report and the leaderboard's ranks aggregate: they carry no
    marker, so A's figures are read before and after B gets busy and must not move."""
    a, b = world
    admin = Caller(app, a.admin)
    before = figures_of(admin)
    _b_gets_busy(app, b)
    after = figures_of(admin)
    moved = [path for path in FIGURES if before[path] != after[path]]
    detail = {p: (before[p], after[p]) for p in moved}
    assert moved == [], f"A's figures moved with B's activity: {detail}"


_CHART_ID = re.compile(rb"svgchart\d+")


def test_monthly_report_and_dashboard_pages_do_not_move_with_b(app, world):
    a, b = world
    admin = Caller(app, a.admin)
    pages = ("/reports/monthly", "/dashboard", "/dashboard?period=monthly", "/dashboard?period=yearly")

    def read():
        # Chart ids count the charts the process has drawn: not a figure.
        return {p: _CHART_ID.sub(b"svgchart", admin.open("GET", p).data) for p in pages}

    before = read()
    _b_gets_busy(app, b)
    after = read()
    assert [p for p in pages if not same_page(before[p], after[p])] == []


# Device keys ----------------------------------------------------------------------------------


def test_a_device_key_reaches_only_its_own_machine(app, world):
    a, b = world
    with tenancy.scoped(a.barangay.id):
        raw = keys.issue_key(a.machine.id, actor_id=None)
    client = app.test_client()
    with tenancy.unscoped():
        b_count = len(db.session.scalars(select(Reading.id).where(Reading.machine_id == b.machine.id)).all())
    for body in (
        {"machineId": b.machine.id, **healthy()},
        {"machine_id": b.machine.id, **healthy()},
        {"readings": [{"ts": iso(1), "machineId": b.machine.id, **healthy()}]},
        {"readings": [{"ts": iso(1), **healthy()}], "machineId": b.machine.id},
    ):
        res = client.post("/api/telemetry", json=body, headers=device(raw))
        assert res.status_code == 400, (body, res.status_code)
    res = client.post(f"/api/telemetry?machine={b.machine.id}", json=healthy(), headers=device(raw))
    assert res.status_code == 202
    with tenancy.unscoped():
        db.session.expire_all()
        assert (
            len(db.session.scalars(select(Reading.id).where(Reading.machine_id == b.machine.id)).all())
            == b_count
        )
    # A's device key is no bearer token: it opens nothing of A's, let alone B's.
    for path in (f"/api/machines/{b.machine.id}", f"/api/machines/{a.machine.id}", "/api/machines"):
        res = client.get(path, headers=device(raw))
        assert res.status_code == 401, path
    # A's Admin cannot revoke or replace B's key: B's device still posts.
    admin = Caller(app, a.admin)
    assert admin.open("DELETE", f"/api/machines/{b.machine.id}/device-key").status_code == 404
    assert admin.open("POST", f"/api/machines/{b.machine.id}/device-key").status_code == 404


def test_rewards_of_b_are_not_claimable_from_a(app, world):
    """A resident of A cannot reserve B's reward (their member's points would go to B's stock)."""
    a, b = world
    resident = Caller(app, a.household)
    res = resident.open("POST", "/api/me/household/claims", body={"rewardId": b.reward.id})
    assert res.status_code == 404
    with tenancy.unscoped():
        db.session.expire_all()
        assert db.session.get(Reward, b.reward.id) is not None
