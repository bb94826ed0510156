"""Sample maintenance data for a fresh install: four operators and requests across every tab."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from ..extensions import db
from ..i18n.localtime import today as local_today
from ..models import (
    ROLE_DEFAULT_MODULES,
    Account,
    AccountStatus,
    MaintenanceEvent,
    MaintenanceEventKind,
    MaintenanceRequest,
    MaintenanceStatus,
    Module,
    RoleId,
    utcnow,
)

# (username, first name, last name, e-mail, phone). No password: an admin sets one up.
OPERATORS = (
    ("juan.delacruz", "Juan", "Dela Cruz", "juan.delacruz@sibol.local", "0917 555 0101"),
    ("maria.santos", "Maria", "Santos", "maria.santos@sibol.local", "0918 555 0102"),
    ("jose.reyes", "Jose", "Reyes", "jose.reyes@sibol.local", "0919 555 0103"),
    ("ana.bautista", "Ana", "Bautista", "ana.bautista@sibol.local", "0920 555 0104"),
)

# (number, issue, priority, status, requested days ago, due in days, completed days ago, operator,
#  remarks)
SAMPLE_REQUESTS = (
    (100231, "Shredder blade jammed on SIBOL Machine 1", "urgent", "ongoing", 2, 3, None, 0, None),
    (
        100457,
        "Biogas pressure gauge reading erratic",
        "critical",
        "ongoing",
        5,
        2,
        None,
        1,
        "Waiting for a replacement gauge.",
    ),
    (100872, "Slurry tank outlet valve leaking", "mild", "ongoing", 1, 7, None, 2, None),
    (
        101104,
        "Replace worn conveyor belt on Machine 3",
        "critical",
        "completed",
        40,
        None,
        30,
        3,
        "Belt replaced and tested.",
    ),
    (
        101339,
        "Clean clogged filtration screen",
        "mild",
        "completed",
        12,
        None,
        9,
        0,
        "Screen cleaned; advised weekly cleaning.",
    ),
    (
        101562,
        "Digester temperature sensor calibration",
        "urgent",
        "completed",
        200,
        None,
        190,
        1,
        "Sensor recalibrated.",
    ),
    (
        101780,
        "Repaint rusted machine housing",
        "mild",
        "canceled",
        20,
        None,
        None,
        2,
        "Housing to be replaced next quarter instead.",
    ),
)


def _operators() -> list[Account | None]:
    modules = list(
        db.session.scalars(select(Module).where(Module.id.in_(ROLE_DEFAULT_MODULES[RoleId.OPERATOR])))
    )
    accounts: list[Account | None] = []  # None where another account holds the e-mail
    for username, first, last, email, _phone in OPERATORS:
        account = db.session.scalar(select(Account).where(Account.username == username))
        if account is None and db.session.scalar(select(Account.id).where(Account.email == email)) is None:
            account = Account(
                username=username,
                first_name=first,
                last_name=last,
                email=email,
                role_id=int(RoleId.OPERATOR),
                status=AccountStatus.ACTIVE,
                is_enabled=True,
                password_hash=None,
                modules=modules,
            )
            db.session.add(account)
        accounts.append(account)
    db.session.flush()
    return accounts


def sample_data() -> None:
    """Idempotent: operators by username; sample requests only while there are none."""
    accounts = _operators()
    if db.session.scalar(select(func.count(MaintenanceRequest.id))):
        db.session.commit()
        return
    today = local_today()
    now = utcnow()
    for number, issue, priority, status, ago, due_in, done_ago, who, remarks in SAMPLE_REQUESTS:
        assignee = accounts[who]
        requested = today - timedelta(days=ago)
        req = MaintenanceRequest(
            request_number=number,
            issue=issue,
            priority=priority,
            status=status,
            request_date=requested,
            due_date=today + timedelta(days=due_in) if due_in is not None else requested + timedelta(days=7),
            date_completed=today - timedelta(days=done_ago) if done_ago is not None else None,
            assignee_id=assignee.id if assignee else None,
            contact_phone=OPERATORS[who][4],
            remarks=remarks,
            cancel_reason=remarks if status == MaintenanceStatus.CANCELED else None,
            created_at=now - timedelta(days=ago),
            updated_at=now - timedelta(days=done_ago if done_ago is not None else ago),
        )
        name = assignee.full_name if assignee else "an operator"
        at = now - timedelta(days=ago)
        req.events.append(
            MaintenanceEvent(
                kind=MaintenanceEventKind.CREATED,
                note=issue,
                actor_name="System",
                due_date=req.due_date,
                created_at=at,
            )
        )
        req.events.append(
            MaintenanceEvent(
                kind=MaintenanceEventKind.ASSIGNED, note=name, actor_name="System", created_at=at
            )
        )
        if status == MaintenanceStatus.ONGOING and remarks:
            req.events.append(
                MaintenanceEvent(
                    kind=MaintenanceEventKind.REMARK,
                    note=remarks,
                    actor_name="System",
                    created_at=at + timedelta(hours=3),
                )
            )
        if status in (MaintenanceStatus.COMPLETED, MaintenanceStatus.CANCELED):
            kind = MaintenanceEventKind(status)
            req.events.append(
                MaintenanceEvent(
                    kind=kind,
                    note=remarks,
                    actor_name="System",
                    created_at=now - timedelta(days=done_ago or max(ago - 1, 0)),
                )
            )
        db.session.add(req)
    db.session.commit()
