"""The collection day page: today's and tomorrow's schedules in the worker's barangay, every
household once with its points and a kg field (each scheduled area's households together, then
the rest; inactive ones shown greyed out with their field disabled), and one Save for the lot.

It is one plain form: without JavaScript the worker types the kilograms and presses Save; the
"collection-day" island adds the running total and, on the installable console, keeps entries
made without signal on the phone until they are sent. The lot is credited all or nothing
(credits.record_many); a refused field is shown next to its household.
"""

from __future__ import annotations

import re

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from ..errors import ServiceError
from ..i18n.localtime import iso_utc, today
from ..identity.access import module_required
from ..inputs.fields import field_errors
from ..inputs.rules import kg_text
from ..models import ModuleId, utcnow
from ..web.offline import offline_page
from . import credits, service

bp = Blueprint("collection_day", __name__)

_KG_FIELD = re.compile(r"^kg-([0-9]{1,18})$")


def _render(values: dict | None = None, errors: dict | None = None, status: int = 200):
    day = today()
    rule_g, rule_points = credits.rule_at(utcnow())
    days = service.schedules_around(day)
    groups = service.collection_groups(days)
    errors = dict(errors or {})
    # A refused household the page no longer lists (removed, or never of this barangay): its
    # message goes to the top, since it has no field to stand beside.
    listed = {f"kg-{m.id}" for _area, members in groups for m in members}
    stray = [message for name, message in errors.items() if name.startswith("kg-") and name not in listed]
    if stray:
        errors["form"] = " ".join([errors.get("form", ""), *stray]).strip()
    body = render_template(
        "household/collection_day.html",
        days=days,
        groups=groups,
        values=values or {},
        errors=errors,
        rule_g=rule_g,
        rule_points=rule_points,
        rule_kg=kg_text(rule_g),
        now_iso=iso_utc(utcnow()),
    )
    return body, status


@bp.get("/household/collection-day")
@module_required(ModuleId.HOUSEHOLD, action="household.waste.credit")
@offline_page
def page():
    return _render()


@bp.post("/household/collection-day")
@module_required(ModuleId.HOUSEHOLD, action="household.waste.credit")
def save():
    entries = []
    values = {}
    for name in request.form:
        found = _KG_FIELD.match(name)
        if found:
            values[name] = request.form.get(name, "")
            entries.append((int(found.group(1)), values[name].strip()))
    if not any(kg for _id, kg in entries):
        return _render(values, {"form": _("Type the kilograms of at least one household.")}, 400)
    try:
        done = credits.record_many(entries, actor_id=current_user.id)
    except ServiceError as err:
        return _render(values, field_errors(err), err.status)
    flash(
        _(
            "Saved: %(households)s households credited, %(kg_text)s kg, %(points)s points.",
            households=len(done),
            kg_text=kg_text(sum(c.waste_g for c in done)),
            points=format(sum(c.points for c in done), ","),
        ),
        "success",
    )
    return redirect(url_for("collection_day.page"))
