"""CSV export of the Maintenance table: the tab's query with its search and filters, unpaged,
with the tab's columns (sibol/data/export.py)."""

from __future__ import annotations

from flask import Response
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, select
from sqlalchemy.orm import joinedload

from ..data.export import stream_rows
from ..models import MaintenanceRequest
from ..models.maintenance import MaintenanceAttachment
from ..web.downloads import csv_response
from .presentation import contact_of, priority_label, status_label
from .queries import ListQuery, requests_query

LEADING = (_l("Request Number"), _l("Details"), _l("Priority"))
TAB_HEADERS = {
    "request": (_l("Request Date"), _l("Status")),
    "pending": (_l("Due Date"), _l("Assigned to"), _l("Contact Detail"), _l("Status")),
    "complete": (_l("Date Completed"), _l("Assigned to"), _l("Status")),
}
IMAGES = _l("Images")


def requests_csv(query: ListQuery) -> Response:
    """The tab's rows; the Image column becomes the number of images."""
    images = (
        select(func.count(MaintenanceAttachment.id))
        .where(MaintenanceAttachment.request_id == MaintenanceRequest.id)
        .scalar_subquery()
    )
    statement = requests_query(query).add_columns(images).options(joinedload(MaintenanceRequest.assignee))

    def shape(row):
        req, image_count = row
        assignee = req.assignee.full_name if req.assignee else ""
        leading = (f"#{req.request_number}", req.issue, priority_label(req.priority))
        if query.tab == "request":
            middle: tuple = (req.request_date, status_label(req.status))
        elif query.tab == "pending":
            middle = (req.due_date, assignee, contact_of(req) or "", status_label(req.status))
        else:
            done = req.date_completed if req.status == "completed" else None
            middle = (done, assignee, status_label(req.status))
        return (*leading, *middle, image_count)

    headers = (*LEADING, *TAB_HEADERS[query.tab], IMAGES)
    return csv_response(f"maintenance-{query.tab}", headers, stream_rows(statement), shape)
