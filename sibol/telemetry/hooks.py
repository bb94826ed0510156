"""Events of other features that the notification centre reports, seen at flush time.

A maintenance request assigned to someone, a waste container marked Full and an account's own
changes are noticed in the flush that writes them, so their notifications commit with them,
whichever page, API or command made the change.
"""

from __future__ import annotations

from datetime import date
from functools import partial

from flask_babel import lazy_gettext as _l
from sqlalchemy import event, inspect, select
from sqlalchemy.orm import Session

from ..extensions import db
from ..i18n.languages import N_
from ..i18n.localtime import local_date
from ..models import Account, Machine, ModuleId
from ..models.machines import WasteContainer
from ..models.maintenance import MaintenanceRequest, MaintenanceStatus
from ..models.telemetry import Notification
from .notifications import later, module_holders, notify


def _changed(obj, attr: str) -> bool:
    return inspect(obj).attrs[attr].history.has_changes()


@event.listens_for(Session, "after_flush")
def _notify_on_flush(session: Session, _context) -> None:
    targets = [
        o
        for o in (*session.new, *session.dirty)
        if isinstance(o, MaintenanceRequest | WasteContainer | Account)
    ]
    if not targets:
        return
    conn = session.connection()
    for obj in targets:
        is_new = obj in session.new
        if isinstance(obj, MaintenanceRequest):
            if obj.assignee_id and (is_new or _changed(obj, "assignee_id")):
                notify(
                    conn,
                    [obj.assignee_id],
                    "maintenance_assigned",
                    later(N_("Maintenance request #%(n)s assigned to you"), n=obj.request_number),
                    (obj.issue or "")[:300],
                    f"/maintenance?request={obj.request_number}",
                )
        elif isinstance(obj, WasteContainer):
            if obj.status == "Full" and (is_new or _changed(obj, "status")):
                name = conn.execute(select(Machine.name).where(Machine.id == obj.machine_id)).scalar()
                notify(
                    conn,
                    module_holders(conn, ModuleId.MACHINES, obj.barangay_id),
                    "container_full",
                    later(N_("Waste container %(no)s is Full"), no=obj.container_no),
                    later(N_("%(machine)s, %(area)s."), machine=name or _l("A machine"), area=obj.area),
                    f"/sibol-machines?tab=waste-container&machine={obj.machine_id}",
                )
        elif not is_new and obj.id is not None:
            _account_events(conn, obj)


def _account_events(conn, account: Account) -> None:
    said = []
    # A new password also ends the account's sessions; a hash upgraded at sign-in does not.
    # (Written when sent, in the account's language: N_ only marks them for the catalogue.)
    if _changed(account, "password_hash") and _changed(account, "session_epoch") and account.password_hash:
        said.append(N_("Your password was changed."))
    if _changed(account, "role_id"):
        said.append(N_("Your role was changed."))
    if "modules" in inspect(account).attrs and _changed(account, "modules"):
        said.append(N_("The modules you can open were changed."))
    for text in said:
        notify(
            conn,
            [account.id],
            "account",
            later(text),
            later(N_("If this was not you, contact your administrator.")),
            "/dashboard",
        )


def notify_overdue_maintenance(today: date) -> int:
    """Tell each assignee once about each request past its due date (a periodic job)."""
    rows = db.session.execute(
        select(
            MaintenanceRequest.id,
            MaintenanceRequest.request_number,
            MaintenanceRequest.assignee_id,
            MaintenanceRequest.due_date,
        ).where(
            MaintenanceRequest.due_date < today,
            MaintenanceRequest.assignee_id.is_not(None),
            MaintenanceRequest.status.in_([MaintenanceStatus.REQUESTED, MaintenanceStatus.ONGOING]),
        )
    ).all()
    told = 0
    conn = db.session.connection()
    for request_id, number, assignee_id, due in rows:
        if due is None or assignee_id is None:  # excluded by the query; for the type checker
            continue
        ref = f"mr{request_id}:{due.isoformat()}"
        exists = db.session.scalar(
            select(Notification.id)
            .where(Notification.kind == "maintenance_overdue", Notification.ref == ref)
            .limit(1)
        )
        if exists:
            continue
        told += notify(
            conn,
            [assignee_id],
            "maintenance_overdue",
            later(N_("Maintenance request #%(n)s is past its due date"), n=number),
            later(N_("It was due on %(date)s."), date=partial(local_date, due)),
            f"/maintenance?request={number}",
            ref=ref,
        )
    db.session.commit()
    return told
