"""Commands: send, cancel and list them for people; deliver them to and take answers from devices.

Every write is one transaction. Expiry is applied by the minute tick (expire_due) and also, for
one machine, at the start of every read or change of its commands, so a status is never shown
stale and the one-pending-command-per-kind rule never counts an expired command.

People reach commands through the request's barangay scope (sibol/identity/tenancy/), so another
barangay's machine is not found. A device has no scope: its functions take the machine id of its
key and always filter by it, so a device never sees or changes another machine's commands.
"""

from __future__ import annotations

from datetime import datetime

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from ..data.rows import as_id, get_machine
from ..errors import Conflict, Invalid, NotFound
from ..extensions import db
from ..models import Machine, utcnow
from ..models.commands import PENDING_STATUSES, Command, CommandEvent, CommandStatus
from . import rules, transport

DEVICE = "device"
SYSTEM = "system"
RESULT_STATUSES = (CommandStatus.EXECUTED, CommandStatus.FAILED)
MAX_DETAIL = 500


def ts_json(ts: datetime | None) -> str | None:
    """Naive UTC -> ISO 8601 with Z."""
    return None if ts is None else ts.isoformat(timespec="seconds") + "Z"


def device_json(cmd: Command) -> dict:
    """A command as a device receives it (HTTP poll and MQTT alike)."""
    return {
        "id": cmd.id,
        "command": cmd.command,
        "value": rules.value_json(cmd.command, cmd.value),
        "createdAt": ts_json(cmd.created_at),
    }


def _event(cmd: Command, status: str, now: datetime, *, actor=None, name: str = "", detail: str = "") -> None:
    cmd.events.append(
        CommandEvent(
            status=status,
            at=now,
            actor_id=getattr(actor, "id", None),
            actor_name=(getattr(actor, "full_name", None) or name)[:210],
            detail=detail[:MAX_DETAIL],
            barangay_id=cmd.barangay_id,
        )
    )


def _finish(
    cmd: Command, status: str, now: datetime, *, actor=None, name: str = "", detail: str = ""
) -> None:
    cmd.status, cmd.pending_kind, cmd.finished_at = status, None, now
    if detail:
        cmd.detail = detail[:MAX_DETAIL]
    _event(cmd, status, now, actor=actor, name=name, detail=detail)


def _expire(machine_id: int | None, now: datetime) -> int:
    """Mark overdue commands expired (not committed). One indexed query when nothing is due."""
    query = select(Command).where(Command.status.in_(PENDING_STATUSES), Command.expires_at <= now)
    if machine_id is not None:
        query = query.where(Command.machine_id == machine_id)
    due = list(db.session.scalars(query.order_by(Command.id).with_for_update()))
    for cmd in due:
        minutes = int(
            (rules.DELIVERY_TTL if cmd.status == CommandStatus.QUEUED else rules.ANSWER_TTL).seconds / 60
        )
        if cmd.status == CommandStatus.QUEUED:
            why = _("Not delivered to the device within %(minutes)s minutes.", minutes=minutes)
        else:
            why = _("The device did not answer within %(minutes)s minutes.", minutes=minutes)
        _finish(cmd, CommandStatus.EXPIRED, now, name=SYSTEM, detail=why)
    return len(due)


def expire_due(machine_id: int | None = None, *, now: datetime | None = None) -> int:
    """Expire every overdue command (of one machine, or all): the minute tick and lazy reads."""
    count = _expire(machine_id, now or utcnow())
    if count:
        db.session.commit()
    return count


def _pending_conflict(machine_id: int, kind: str) -> Conflict:
    pending = db.session.scalar(
        select(Command).where(Command.machine_id == machine_id, Command.pending_kind == kind)
    )
    if pending is None:  # pragma: no cover - it finished between the refusal and this read
        return Conflict(
            _("A %(kind)s command is already waiting for this machine.", kind=kind), field="command"
        )
    return Conflict(
        _(
            "A %(kind)s command (#%(id)s, %(status)s) is already waiting for this machine: "
            "cancel it or wait for its answer.",
            kind=kind,
            id=pending.id,
            status=_(pending.status),
        ),
        field="command",
        pendingId=pending.id,
        pendingStatus=pending.status,
    )


def send(machine_id: int | str, command: object, value: object, *, actor) -> Command:
    """Queue a command for the machine. Invalid (bad command or value), NotFound (machine),
    Conflict (one of the same kind is queued or delivered). Pages ask a person to confirm
    generator stop and reboot before they call this; an API client is its own judge."""
    machine = get_machine(machine_id)
    kind = rules.parse_command(command)
    stored = rules.parse_value(kind, value)
    now = utcnow()
    _expire(machine.id, now)
    if db.session.scalar(
        select(Command.id).where(Command.machine_id == machine.id, Command.pending_kind == kind.name)
    ):
        raise _pending_conflict(machine.id, kind.name)
    cmd = Command(
        machine_id=machine.id,
        command=kind.name,
        value=stored,
        status=CommandStatus.QUEUED,
        pending_kind=kind.name,
        created_at=now,
        expires_at=now + rules.DELIVERY_TTL,
        created_by_id=actor.id,
        created_by_name=actor.full_name[:210],
        barangay_id=machine.barangay_id,
    )
    db.session.add(cmd)
    _event(cmd, CommandStatus.QUEUED, now, actor=actor)
    try:
        db.session.commit()
    except IntegrityError:  # another person queued the same kind a moment ago
        db.session.rollback()
        raise _pending_conflict(machine.id, kind.name) from None
    if transport.command_queued(machine.id, device_json(cmd)):
        mark_delivered(machine.id, cmd.id)  # the broker holds it for the device: no poll repeats it
    return cmd


def _command(machine_id: int, command_id: int | str, *, lock: bool = False) -> Command:
    found = as_id(command_id)
    query = select(Command).where(Command.id == (found or 0), Command.machine_id == machine_id)
    cmd = db.session.scalar(query.with_for_update() if lock else query)
    if cmd is None:
        raise NotFound(_("Command not found."))
    return cmd


def cancel(machine_id: int | str, command_id: int | str, *, actor) -> Command:
    """Cancel a command while it is still queued; Conflict once the device has it (or it ended)."""
    machine = get_machine(machine_id)
    now = utcnow()
    _expire(machine.id, now)
    cmd = _command(machine.id, command_id, lock=True)
    if cmd.status != CommandStatus.QUEUED:
        db.session.commit()  # keep any expiry just applied
        raise Conflict(
            _("Only a queued command can be cancelled; this one is %(status)s.", status=_(cmd.status)),
            field="status",
            status=cmd.status,
        )
    _finish(cmd, CommandStatus.CANCELLED, now, actor=actor)
    db.session.commit()
    return cmd


def list_commands(
    machine_id: int | str, *, status: str | None = None, page: int = 1, per_page: int = 10
) -> tuple[Machine, list[Command], int]:
    """One page of the machine's commands, newest first, with their events; optionally one status."""
    machine = get_machine(machine_id)
    if status is not None and status not in set(CommandStatus):
        raise Invalid(
            _("status must be one of %(statuses)s.", statuses=", ".join(CommandStatus)), field="status"
        )
    expire_due(machine.id)
    where = [Command.machine_id == machine.id]
    if status is not None:
        where.append(Command.status == status)
    total = db.session.scalar(select(func.count()).select_from(Command).where(*where)) or 0
    rows = list(
        db.session.scalars(
            select(Command)
            .where(*where)
            .options(selectinload(Command.events))
            .order_by(Command.id.desc())
            .limit(per_page)
            .offset((page - 1) * per_page)
        )
    )
    return machine, rows, total


HISTORY_SIZE = 20  # commands the device page shows


def history(machine_id: int, limit: int = HISTORY_SIZE) -> list[Command]:
    """The machine's newest commands with their events, for its device page."""
    return list_commands(machine_id, per_page=limit)[1]


def history_version(machine_id: int, limit: int = HISTORY_SIZE) -> tuple:
    """A cheap version of the history: (id, status) of the newest commands it shows. A new command
    or any change of status (the only thing that adds an event or a detail) changes it; read
    through the (machine, id) index, `limit` rows. An overdue command is expired first (one
    indexed look without a lock when none is due), so expiry shows with the next poll."""
    overdue = db.session.scalar(
        select(Command.id)
        .where(
            Command.machine_id == machine_id,
            Command.status.in_(PENDING_STATUSES),
            Command.expires_at <= utcnow(),
        )
        .limit(1)
    )
    if overdue is not None:
        expire_due(machine_id)
    rows = db.session.execute(
        select(Command.id, Command.status)
        .where(Command.machine_id == machine_id)
        .order_by(Command.id.desc())
        .limit(limit)
    )
    return tuple((row.id, row.status) for row in rows)


# The device's side ------------------------------------------------------------------------------


def deliver_pending(machine_id: int) -> list[dict]:
    """The machine's queued commands, oldest first, each now delivered (HTTP poll or MQTT)."""
    now = utcnow()
    _expire(machine_id, now)
    queued = list(
        db.session.scalars(
            select(Command)
            .where(Command.machine_id == machine_id, Command.status == CommandStatus.QUEUED)
            .order_by(Command.id)
            .with_for_update()
        )
    )
    for cmd in queued:
        _deliver(cmd, now)
    answer = [device_json(cmd) for cmd in queued]
    db.session.commit()
    return answer


def _deliver(cmd: Command, now: datetime) -> None:
    cmd.status, cmd.delivered_at, cmd.expires_at = CommandStatus.DELIVERED, now, now + rules.ANSWER_TTL
    _event(cmd, CommandStatus.DELIVERED, now, name=DEVICE)


def mark_delivered(machine_id: int, command_id: int) -> bool:
    """After a successful MQTT publish: the command is delivered (a later poll will not repeat it).
    False when it is no longer queued (cancelled or answered meanwhile)."""
    now = utcnow()
    _expire(machine_id, now)
    cmd = db.session.scalar(
        select(Command)
        .where(
            Command.id == command_id, Command.machine_id == machine_id, Command.status == CommandStatus.QUEUED
        )
        .with_for_update()
    )
    if cmd is not None:
        _deliver(cmd, now)
    db.session.commit()
    return cmd is not None


def parse_result(status: object, detail: object) -> tuple[str, str]:
    """A device's answer: status executed | failed, and an optional detail (text, 500 at most)."""
    if status not in RESULT_STATUSES:
        raise Invalid(_("status must be executed or failed."), field="status")
    if detail is None:
        detail = ""
    if not isinstance(detail, str):
        raise Invalid(_("detail must be text."), field="detail")
    if len(detail) > MAX_DETAIL:
        raise Invalid(_("detail is longer than %(n)s characters.", n=MAX_DETAIL), field="detail")
    return str(status), detail.strip()


def record_result(machine_id: int, command_id: int | str, status: object, detail: object) -> Command:
    """The device's answer to one of its machine's commands. Invalid (status, detail), NotFound
    (not this machine's command), Conflict (already answered, expired or cancelled)."""
    status, text = parse_result(status, detail)
    now = utcnow()
    _expire(machine_id, now)
    cmd = _command(machine_id, command_id, lock=True)
    if cmd.status not in PENDING_STATUSES:
        db.session.commit()
        raise Conflict(
            _("Command #%(id)s is already %(status)s.", id=cmd.id, status=_(cmd.status)),
            field="status",
            status=cmd.status,
        )
    if cmd.delivered_at is None:  # answered before a poll: it came another way (MQTT)
        cmd.delivered_at = now
    _finish(cmd, status, now, name=DEVICE, detail=text)
    db.session.commit()
    return cmd


def already_answered(machine_id: int, command_id: object, status: object, detail: object) -> bool:
    """Whether this exact answer is the one recorded (a message the broker sent again after the
    subscriber stopped before acknowledging it): taken once, neither stored again nor refused."""
    try:
        wanted, text = parse_result(status, detail)
        cmd = _command(machine_id, command_id if isinstance(command_id, int | str) else "")
    except (Invalid, NotFound):
        return False
    return cmd.status == wanted and (cmd.detail or "") == text[:MAX_DETAIL]
