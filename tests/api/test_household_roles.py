"""Role x action matrix over every household write (API and page forms), for the four roles and
anonymous callers (part 1). The expectations are written out from the issue, not read
from sibol/identity/permissions.py, so a wrong entry in that table fails here.

Admin and Barangay Staff: everything. Operator: credit waste, redeem claims, record a collection
on the dashboard. Household: none of these writes; only claims for itself (/api/me/household).
A refused write answers 403 (API: JSON; page: the error page) and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.household.residents import claims
from sibol.models import (
    CollectionSchedule,
    EnergyReading,
    HouseholdMember,
    PointRule,
    Reward,
    RewardClaim,
    RoleId,
    WasteCollection,
)
from tests.factories import make_account, token_for
from tests.factories_admin import session_client
from tests.factories_household import make_member, make_reward, make_schedule

STAFF = {"admin", "staff"}
CREW = {"admin", "staff", "operator"}
CALLERS = ("anonymous", "household", "operator", "staff", "admin")
ROLE_OF = {
    "household": RoleId.HOUSEHOLD,
    "operator": RoleId.OPERATOR,
    "staff": RoleId.STAFF,
    "admin": RoleId.ADMIN,
}
SCHEDULE = {
    "maintenancePerson": "Ana Cruz",
    "collectorContact": "0917 555 0101",
    "areas": "Purok 2",
    "dateOfCollection": "2026-12-01",
}


@dataclass
class Write:
    name: str
    method: str
    path: str  # {schedule}, {reward}, {member} are filled with rows the test makes
    allowed: set[str]
    json: dict | None = None
    form: dict | None = field(default=None)


WRITES = [
    Write("api create schedule", "POST", "/api/household/schedules", STAFF, json=SCHEDULE),
    Write(
        "api edit schedule", "PUT", "/api/household/schedules/{schedule}", STAFF, json={"status": "Collected"}
    ),
    Write(
        "api create reward", "POST", "/api/household/rewards", STAFF, json={"reward": "Rice", "points": 50}
    ),
    Write(
        "api set point rule",
        "PUT",
        "/api/household/point-rule",
        STAFF,
        json={"wasteKg": 1, "points": 1000000},
    ),
    Write(
        "api claim for a member",
        "POST",
        "/api/household/rewards/{reward}/claims",
        STAFF,
        json={"memberId": "{member}"},
    ),
    Write(
        "api dashboard collection",
        "POST",
        "/api/dashboard/waste-collections",
        CREW,
        json={"street": "Rizal", "collectedOn": "2026-11-01", "weightKg": "2"},
    ),
    Write(
        "api dashboard energy",
        "POST",
        "/api/dashboard/energy-readings",
        CREW,
        json={"month": "2026-10", "kilowatts": "40"},
    ),
    Write("page create schedule", "POST", "/household/schedules", STAFF, form=SCHEDULE),
    Write(
        "page edit schedule",
        "POST",
        "/household/schedules/{schedule}",
        STAFF,
        form={**SCHEDULE, "status": "Collected"},
    ),
    Write(
        "page create reward",
        "POST",
        "/household/rewards",
        STAFF,
        form={"reward": "Rice", "points": "50", "status": "Available"},
    ),
    Write(
        "page set point rule",
        "POST",
        "/household/point-rule",
        STAFF,
        form={"wasteKg": "1", "points": "1000000"},
    ),
    Write(
        "page add household",
        "POST",
        "/household/members",
        STAFF,
        form={"name": "New Home", "barangay": "Barangay Fortune", "points": "5"},
    ),
    Write("page credit waste", "POST", "/household/members/{member}/waste", CREW, form={"wasteKg": "2"}),
    Write(
        "page claim for a member",
        "POST",
        "/household/rewards/{reward}/claims",
        STAFF,
        form={"memberId": "{member}", "confirmed": "1"},  # claiming asks first
    ),
    Write(
        "page dashboard collection",
        "POST",
        "/dashboard/waste-collections",
        CREW,
        form={"street": "Rizal", "collectedOn": "2026-11-01", "weightKg": "2"},
    ),
    Write(
        "page dashboard energy",
        "POST",
        "/dashboard/energy-readings",
        CREW,
        form={"month": "2026-10", "kilowatts": "40"},
    ),
    Write("api redeem claim", "POST", "/api/household/claims/redeem", CREW, json={"code": "{code}"}),
    Write("page redeem claim", "POST", "/household/redeem", CREW, form={"code": "{code}"}),
    Write("api cancel any claim", "POST", "/api/household/claims/{claim}/cancel", STAFF, json={}),
    Write("page cancel any claim", "POST", "/household/claims/{claim}/cancel", STAFF, form={}),
    Write(
        "api link account",
        "PUT",
        "/api/household/members/{member}/account",
        STAFF,
        json={"username": "{linkable}"},
    ),
    Write(
        "page link account",
        "POST",
        "/household/members/{member}/account",
        STAFF,
        form={"username": "{linkable}"},
    ),
    Write(
        "api claim for itself",
        "POST",
        "/api/me/household/claims",
        {"household"},
        json={"rewardId": "{reward}"},
    ),
    Write(
        "page claim for itself", "POST", "/household/my/claims", {"household"}, form={"rewardId": "{reward}"}
    ),
]


pytestmark = pytest.mark.usefixtures("fresh_identity")


def state() -> tuple:
    """Everything a household write could change."""

    def count(model) -> int:
        return db.session.scalar(select(func.count()).select_from(model)) or 0

    db.session.expire_all()
    rule = db.session.scalar(select(PointRule))
    return (
        count(CollectionSchedule),
        tuple(db.session.scalars(select(CollectionSchedule.status).order_by(CollectionSchedule.id))),
        count(Reward),
        count(RewardClaim),
        count(HouseholdMember),
        db.session.scalar(select(func.sum(HouseholdMember.points))),
        tuple(db.session.scalars(select(RewardClaim.state).order_by(RewardClaim.id))),
        tuple(db.session.scalars(select(HouseholdMember.account_id).order_by(HouseholdMember.id))),
        tuple(db.session.scalars(select(RewardClaim.state).order_by(RewardClaim.id))),
        tuple(db.session.scalars(select(HouseholdMember.account_id).order_by(HouseholdMember.id))),
        None if rule is None else (rule.waste_g, rule.points),
        count(WasteCollection),
        count(EnergyReading),
    )


def fill(value, ids: dict):
    if isinstance(value, str):
        filled = value.format(**ids)
        return int(filled) if value.startswith("{") and filled.isdigit() else filled
    if isinstance(value, dict):
        return {k: fill(v, ids) for k, v in value.items()}
    return value


def send(app, caller, write: Write, ids: dict):
    path = fill(write.path, ids)
    if path.startswith("/api/"):
        client = app.test_client()
        headers = {"Authorization": f"Bearer {token_for(caller)}"} if caller else {}
        return client.open(path, method=write.method, json=fill(write.json, ids), headers=headers)
    client = session_client(app, caller) if caller else app.test_client()
    form = {k: str(v) for k, v in fill(write.form, ids).items()}
    return client.open(path, method=write.method, data=form)


@pytest.mark.parametrize("kind", CALLERS)
@pytest.mark.parametrize("write", WRITES, ids=[w.name for w in WRITES])
def test_role_action_matrix(app, kind, write):
    owner = make_member(points=100)
    reward = make_reward(points=10)
    claim = claims.reserve(owner, reward.id)
    ids = {
        "schedule": make_schedule().id,
        "reward": reward.id,
        "member": make_member(points=100).id,
        "claim": claim.id,
        "code": claim.code,
        "linkable": make_account(role=RoleId.HOUSEHOLD).username,
    }
    caller = None if kind == "anonymous" else make_account(role=ROLE_OF[kind])
    if kind == "household":  # a resident with its own household and points
        make_member(points=100).account_id = caller.id
        db.session.commit()
    before = state()
    res = send(app, caller, write, ids)
    is_api = write.path.startswith("/api/")
    if kind == "anonymous":
        if is_api:
            assert res.status_code == 401 and res.is_json
        else:
            assert res.status_code == 302 and "/login" in res.headers["Location"]
        assert state() == before
    elif kind in write.allowed:
        assert res.status_code in (200, 201, 302), res.get_data(as_text=True)[:500]
        assert state() != before, f"{kind} was allowed to {write.name} but nothing changed"
    else:
        assert res.status_code == 403
        if is_api:
            assert res.is_json and res.get_json()["code"] == "forbidden"
        else:
            assert "Your role does not allow this." in res.get_data(as_text=True)
        assert state() == before, f"{kind} was refused {write.name} yet something changed"


def test_household_cannot_read_the_roster(app, api_headers):
    """The leaderboard API and the claims list carry every member's name: staff and operators only."""
    member = make_member("Private Person")
    resident = make_account(role=RoleId.HOUSEHOLD)
    for path in ("/api/household/leaderboard", "/api/household/claims"):
        res = app.test_client().get(path, headers=api_headers(resident))
        assert res.status_code == 403, path
        assert member.name not in res.get_data(as_text=True)
    operator = make_account(role=RoleId.OPERATOR)
    res = app.test_client().get("/api/household/leaderboard", headers=api_headers(operator))
    assert res.status_code == 200 and res.get_json()["data"][0]["name"] == "Private Person"


def test_dashboard_hides_record_forms_from_households(app):
    resident = make_account(role=RoleId.HOUSEHOLD)
    page = session_client(app, resident).get("/dashboard").get_data(as_text=True)
    assert "Record a collection" not in page and "Record a month" not in page
    staff = make_account(role=RoleId.STAFF)
    page = session_client(app, staff).get("/dashboard").get_data(as_text=True)
    assert "Record a collection" in page and "Record a month" in page


def test_household_page_shows_operators_only_what_they_may_do(app):
    make_member("Rosa", points=500)
    make_reward("Rice", points=10)
    make_schedule(person="Ana Cruz")
    operator = session_client(app, make_account(role=RoleId.OPERATOR))
    staff = session_client(app, make_account(role=RoleId.STAFF))
    for tab, staff_only, both in (
        ("schedule", ['data-open-dialog="add-schedule"', "Edit schedule of Ana Cruz"], []),
        ("leaderboard", ['data-open-dialog="add-household"'], ["Record waste for Rosa"]),
        ("rewards", ['data-open-dialog="add-reward"', 'aria-label="Claim Rice"'], []),
        ("claimed", [], ["Redeem a claim"]),
    ):
        seen_by_operator = operator.get(f"/household?tab={tab}").get_data(as_text=True)
        seen_by_staff = staff.get(f"/household?tab={tab}").get_data(as_text=True)
        for text in staff_only:
            assert text in seen_by_staff and text not in seen_by_operator, (tab, text)
        for text in both:
            assert text in seen_by_staff and text in seen_by_operator, (tab, text)
    assert "data-points-edit" in staff.get("/household?tab=points").get_data(as_text=True)
    points_page = operator.get("/household?tab=points").get_data(as_text=True)
    assert '<div class="modal__actions" hidden>' in points_page


def test_machine_and_maintenance_writes_need_a_crew_role_even_with_the_module(app, api_headers):
    """A Household account an admin gave every module still cannot change machines or maintenance."""
    from sibol.models import Area, Machine

    area = db.session.scalar(select(Area).order_by(Area.id))
    resident = make_account(role=RoleId.HOUSEHOLD, modules=[1, 2, 3, 4, 5])
    operator = make_account(role=RoleId.OPERATOR)
    client = app.test_client()
    body = {"areaId": area.id, "name": "Digester 9"}
    res = client.post("/api/machines", json=body, headers=api_headers(resident))
    assert res.status_code == 403 and res.json["code"] == "forbidden"
    assert client.get("/api/machines?page=1", headers=api_headers(resident)).status_code == 200  # reads stay
    res = client.post("/api/maintenance/requests", json={"issue": "Leak"}, headers=api_headers(resident))
    assert res.status_code == 403
    assert db.session.scalar(select(func.count()).select_from(Machine)) == 0
    assert client.post("/api/machines", json=body, headers=api_headers(operator)).status_code in (200, 201)
