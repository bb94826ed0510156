"""Two barangays, each with a full set of records, for the tenant isolation tests.

Every record of a barangay carries its marker in a name (B's is a word found nowhere else), so
a response that shows one of B's rows shows the marker. Records are made through the same API
calls a barangay's Admin makes where that is how they come to exist (rewards with images,
maintenance requests with uploads, device keys, readings), through services and factories
otherwise, inside `tenancy.scoped(<barangay>)`; each row must then carry its barangay's id.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from sibol.extensions import db
from sibol.household.residents import claims
from sibol.identity import tenancy
from sibol.models import Account, AccountStatus, Area, Barangay, Machine, RoleId
from sibol.models.commands import Command
from sibol.models.household import CollectionSchedule, HouseholdMember, Reward, RewardClaim, WasteCollection
from sibol.models.maintenance import MaintenanceAttachment, MaintenanceRequest
from sibol.models.residents import MemberCollection
from sibol.models.telemetry import Alert, Notification
from tests.factories import make_account, token_for
from tests.factories_household import make_member, make_schedule, png_bytes
from tests.factories_machines import make_additive, make_container
from tests.factories_maintenance import PNG, due_in
from tests.factories_telemetry import device, healthy, iso

MARK_A = "Alphamark"
MARK_B = "Zqxbetamark"  # in nothing but barangay B's rows


@dataclass
class Tenant:
    barangay: Barangay
    mark: str
    area: Area
    admin: Account
    staff: Account
    operator: Account
    household: Account
    pending: Account
    disabled: Account
    machine: Machine
    member: HouseholdMember
    schedule: CollectionSchedule
    reward: Reward
    open_claim: RewardClaim
    redeemed_claim: RewardClaim
    request: MaintenanceRequest
    attachment: MaintenanceAttachment
    alert: Alert
    notification: Notification
    command: Command

    @property
    def accounts(self) -> list[Account]:
        return [self.admin, self.staff, self.operator, self.household, self.pending, self.disabled]


def _account(barangay: Barangay, mark: str, what: str, role: RoleId, **fields) -> Account:
    return make_account(
        role=role,
        username=f"{mark.lower()}_{what}",
        first_name=mark,
        last_name=what.title(),
        email=f"{what}@{mark.lower()}.example.test",
        barangay_id=barangay.id,
        **fields,
    )


def build_world(app) -> tuple[Tenant, Tenant]:
    """Barangay A (the first one, marker MARK_A) and barangay B (MARK_B), each with everything."""
    client = app.test_client()
    return build_tenant(client, "Barangay Fortune", MARK_A), build_tenant(client, "Barangay Malanday", MARK_B)


def build_tenant(client, barangay_name: str, mark: str) -> Tenant:
    """Builds the barangay's records as its own people would (new rows take the scope's barangay)."""
    barangay = db.session.scalar(select(Barangay).where(Barangay.name == barangay_name))
    if barangay is None:
        barangay = Barangay(name=barangay_name)
        db.session.add(barangay)
        db.session.commit()
    with tenancy.scoped(barangay.id):
        return _build(client, barangay, mark)


def _build(client, barangay: Barangay, mark: str) -> Tenant:
    area = Area(name=f"{mark} Purok", barangay_id=barangay.id)
    db.session.add(area)
    db.session.commit()
    admin = _account(barangay, mark, "admin", RoleId.ADMIN)
    staff = _account(barangay, mark, "staff", RoleId.STAFF)
    operator = _account(barangay, mark, "operator", RoleId.OPERATOR)
    household = _account(barangay, mark, "household", RoleId.HOUSEHOLD)
    pending = _account(
        barangay, mark, "pending", RoleId.HOUSEHOLD, status=AccountStatus.PENDING, password=None
    )
    disabled = _account(barangay, mark, "disabled", RoleId.STAFF)
    disabled.is_enabled = False
    db.session.commit()
    bearer = {"Authorization": f"Bearer {token_for(admin)}"}

    def api(method: str, path: str, **kwargs):
        res = client.open(path, method=method, headers={**bearer, **kwargs.pop("headers", {})}, **kwargs)
        assert res.status_code < 300, f"{method} {path}: {res.status_code} {res.get_data(as_text=True)}"
        tenancy.set_scope(barangay.id)  # a request ends by clearing the scope
        return res

    # Machines, their sub-records, a device key, readings (one out of range: an alert and its
    # notifications), as the barangay's Admin makes them.
    api("POST", "/api/machines", json={"name": f"{mark} Digester", "areaId": area.id})
    machine = db.session.scalar(select(Machine).where(Machine.name == f"{mark} Digester"))
    make_additive(machine, person_in_charge=f"{mark} Chemist")
    make_container(machine, container_no=f"WC-{mark}")
    key = api("POST", f"/api/machines/{machine.id}/device-key").json["deviceKey"]
    readings = [{"ts": iso(10), **healthy()}, {"ts": iso(5), **healthy(temperature_c=95.0)}]
    res = client.post("/api/telemetry", json={"readings": readings}, headers=device(key))
    assert res.status_code < 300, res.get_data(as_text=True)
    tenancy.set_scope(barangay.id)

    # Household: a member linked to the Household account, a schedule, a reward with an image,
    # a claim staff made (redeemed) and a resident's open claim with a code; collections.
    member = make_member(f"{mark} Household", points=5000, barangay=barangay.name)
    member.account_id = household.id
    db.session.commit()
    schedule = make_schedule(areas=(f"{mark} Purok",), person=f"{mark} Collector")
    api(
        "POST",
        "/api/household/rewards",
        data={
            "reward": f"{mark} Rice",
            "status": "Available",
            "points": "100",
            "area": f"{mark} Purok",
            "image": (io.BytesIO(png_bytes()), "rice.png"),
        },
    )
    reward = db.session.scalar(select(Reward).where(Reward.name == f"{mark} Rice"))
    api("POST", f"/api/household/rewards/{reward.id}/claims", json={"memberId": member.id})
    redeemed = db.session.scalar(select(RewardClaim).where(RewardClaim.member_id == member.id))
    open_claim = claims.reserve(member, reward.id)
    db.session.add(
        MemberCollection(member_id=member.id, collected_on=date(2026, 1, 10), waste_g=1500, points=15)
    )
    db.session.add(WasteCollection(street=f"{mark} Street", collected_on=date(2026, 1, 10), weight_g=2500))
    db.session.commit()

    # Maintenance: a request with an uploaded image, assigned to the barangay's operator.
    api(
        "POST",
        "/api/maintenance/requests",
        content_type="multipart/form-data",
        data={
            "assignedTo": str(operator.id),
            "issue": f"{mark} shredder jammed",
            "priority": "Urgent",
            "dueDate": due_in(5),
            "contactDetails": "0917 555 0101",
            "file": (io.BytesIO(PNG), f"{mark}.png"),
        },
    )
    request = db.session.scalar(select(MaintenanceRequest).where(MaintenanceRequest.issue.contains(mark)))
    attachment = db.session.scalar(
        select(MaintenanceAttachment).where(MaintenanceAttachment.request_id == request.id)
    )
    # A command to the machine, queued by the barangay's Admin (whose name carries the marker).
    command_id = api(
        "POST", f"/api/machines/{machine.id}/commands", json={"command": "stir", "value": 5}
    ).json["id"]
    command = db.session.get(Command, command_id)
    alert = db.session.scalar(select(Alert).where(Alert.machine_id == machine.id))
    notification = db.session.scalar(
        select(Notification).where(Notification.account_id == admin.id, Notification.title.contains(mark))
    )
    assert alert is not None and notification is not None, "the out-of-range reading opened no alert"

    tenant = Tenant(
        barangay=barangay,
        mark=mark,
        area=area,
        admin=admin,
        staff=staff,
        operator=operator,
        household=household,
        pending=pending,
        disabled=disabled,
        machine=machine,
        member=member,
        schedule=schedule,
        reward=reward,
        open_claim=open_claim,
        redeemed_claim=redeemed,
        request=request,
        attachment=attachment,
        alert=alert,
        notification=notification,
        command=command,
    )
    rows = (area, *tenant.accounts, machine, member, schedule, reward, open_claim, redeemed, request)
    rows += (attachment, alert, command)
    wrong = [row for row in rows if row.barangay_id != barangay.id]
    assert wrong == [], f"made as {barangay.name} but stamped elsewhere: {wrong}"
    return tenant
