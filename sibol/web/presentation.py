"""Badge colours the templates show, by kind of badge; no service holds presentation.

Templates call `badge(label, kind)` (templates/macros/badge.html), which asks `badge_colour`.
Feature labels (maintenance priorities, statuses, events) live in each feature's
presentation module; this one holds the colour tables every feature shares.
"""

from __future__ import annotations

from flask import Flask

from ..i18n.labels import shown

# kind -> (label -> colour, colour of any other label)
BADGE_COLOURS: dict[str, tuple[dict[str, str], str]] = {
    "account": ({"Active": "green", "Disabled": "red", "Rejected": "grey"}, "yellow"),
    "machine": (
        {"Active": "green", "Inactive": "grey", "Under Maintenance": "orange", "Offline": "red"},
        "blue",
    ),
    "container": ({"Full": "red"}, "green"),
    "collection": ({"Collected": "green", "Collecting": "blue", "Cancelled": "grey"}, "yellow"),
    "membership": ({"Active": "green"}, "grey"),
    "reward": ({"Available": "green"}, "grey"),
    # Spec section 4: Urgent red, Critical orange, Mild yellow, unknown grey.
    "maintenance-priority": ({"Urgent": "red", "Critical": "orange", "Mild": "yellow"}, "grey"),
    "maintenance-status": ({"On-going": "blue", "Completed": "green", "Canceled": "grey"}, "grey"),
}


def badge_colour(kind: str, label: str | None) -> str:
    """The colour (badge--<colour>) of a badge of this kind showing this label."""
    colours, other = BADGE_COLOURS[kind]
    return colours.get(label or "", other)


def init_presentation(app: Flask) -> None:
    app.jinja_env.globals.update(badge_colour=badge_colour, shown=shown)
    app.jinja_env.filters["shown"] = shown
