"""What the Maintenance page and JSON show for stored values: tab, status, priority and event
labels, filter choices and chips, a request's contact. Colours are in sibol/web/presentation.py."""

from __future__ import annotations

from ..models import MaintenanceEventKind, MaintenancePriority, MaintenanceRequest, MaintenanceStatus
from .queries import ListQuery
from .service import FILTER_PRIORITIES, FILTER_STATUSES, PERIODS

TAB_LABELS = {
    "request": "Request Maintenance",
    "pending": "Pending Maintenance",
    "complete": "Complete Maintenance",
}
STATUS_LABELS = {
    MaintenanceStatus.ONGOING: "On-going",
    MaintenanceStatus.COMPLETED: "Completed",
    MaintenanceStatus.CANCELED: "Canceled",
}
PRIORITY_LABELS = {
    MaintenancePriority.CRITICAL: "Critical",
    MaintenancePriority.URGENT: "Urgent",
    MaintenancePriority.MILD: "Mild",
}
EVENT_LABELS = {
    MaintenanceEventKind.CREATED: "Created",
    MaintenanceEventKind.ASSIGNED: "Assigned",
    MaintenanceEventKind.RENEWED: "Renewed",
    MaintenanceEventKind.REMARK: "Remark",
    MaintenanceEventKind.COMPLETED: "Completed",
    MaintenanceEventKind.CANCELED: "Canceled",
    MaintenanceEventKind.REOPENED: "Reopened",
}


def priority_label(value: str | None) -> str:
    try:
        return PRIORITY_LABELS[MaintenancePriority(value or "")]
    except ValueError:
        return (value or "Unknown").title()


def status_label(value: str | None) -> str:
    try:
        return STATUS_LABELS[MaintenanceStatus(value or "")]
    except ValueError:
        return (value or "Unknown").title()


def event_label(kind: str) -> str:
    try:
        return EVENT_LABELS[MaintenanceEventKind(kind)]
    except ValueError:
        return kind


def contact_of(req: MaintenanceRequest) -> str | None:
    """The request's own phone, else the assignee's e-mail."""
    if req.contact_phone:
        return req.contact_phone
    return req.assignee.email if req.assignee else None


def filter_chips(query: ListQuery) -> list[tuple[str, str, str]]:
    """(query name, value, label) of each chosen filter, in the dialog's order."""
    chips = [("status", s, f"Status: {status_label(s)}") for s in query.statuses]
    chips += [("priority", p, f"Priority: {priority_label(p)}") for p in query.priorities]
    chips += [("date", d, f"Request date: {PERIODS[d][0]}") for d in query.periods]
    return chips


def page_context() -> dict:
    """Labels and choices the Maintenance templates show (no service object reaches them)."""
    return {
        "tab_labels": TAB_LABELS,
        "status_choices": [(v, status_label(v)) for v in FILTER_STATUSES],
        "priority_choices": [(v, priority_label(v)) for v in FILTER_PRIORITIES],
        "new_priority_choices": [(v, priority_label(v)) for v in ("urgent", "critical", "mild")],
        "period_choices": [(v, label) for v, (label, _days) in PERIODS.items()],
        "priority_label": priority_label,
        "status_label": status_label,
        "event_label": event_label,
        "contact_of": contact_of,
        "filter_chips": filter_chips,
    }
