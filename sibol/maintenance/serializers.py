"""JSON shapes of maintenance requests: the spec's names (section 3: requestNumber, details, ...)."""

from __future__ import annotations

from datetime import date, datetime

from flask import url_for

from ..models import Account, MaintenanceAttachment, MaintenanceEvent, MaintenanceRequest
from . import presentation, service


def _day(value: date | None) -> str | None:
    return value.isoformat() if value else None


def _time(value: datetime | None) -> str | None:
    return value.isoformat(timespec="seconds") + "Z" if value else None


def operator_json(account: Account) -> dict:
    return {"id": account.id, "name": account.full_name, "username": account.username, "email": account.email}


def attachment_json(item: MaintenanceAttachment) -> dict:
    return {
        "id": item.id,
        "name": item.original_name,
        "contentType": item.content_type,
        "size": item.size,
        "url": url_for("maintenance.attachment", attachment_id=item.id),
    }


def event_json(event: MaintenanceEvent) -> dict:
    return {
        "kind": event.kind,
        "label": presentation.event_label(event.kind),
        "note": event.note,
        "dueDate": _day(event.due_date),
        "actor": event.actor_name,
        "actorId": event.actor_id,
        "at": _time(event.created_at),
    }


def request_json(req: MaintenanceRequest, *, with_history: bool = False) -> dict:
    attachments = [attachment_json(a) for a in req.attachments]
    body = {
        "id": req.id,
        "requestNumber": req.request_number,
        "details": req.issue,
        "issue": req.issue,
        "priority": presentation.priority_label(req.priority),
        "priorityKey": req.priority,
        "requestDate": _day(req.request_date),
        "dueDate": _day(req.due_date),
        "assignedTo": req.assignee.full_name if req.assignee else None,
        "assignedToId": req.assignee_id,
        "contactDetails": presentation.contact_of(req),
        "status": presentation.status_label(req.status),
        "statusKey": req.status,
        "dateCompleted": _day(req.date_completed),
        "remarks": req.remarks,
        "cancelReason": req.cancel_reason,
        "image": attachments[0]["url"] if attachments else None,
        "attachments": attachments,
        "tab": service.tab_of(req),
    }
    if with_history:
        body["history"] = [event_json(e) for e in req.events]
    return body
