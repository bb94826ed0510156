"""Stored English labels shown in the reader's language."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

# Stored English values people read (module, role, status, priority, event and tab names): the
# JSON and the database keep them in English (the spec defines them); pages show them through
# `shown` (a Jinja filter, used by badge()), which gives them in the reader's language.
DISPLAY_LABELS = dict(
    {
        "Dashboard": _l("Dashboard"),
        "SIBOL Machines": _l("SIBOL Machines"),
        "Maintenance": _l("Maintenance"),
        "Household": _l("Household"),
        "Chat Support": _l("Chat Support"),
        "Admin": _l("Admin"),
        "Barangay Staff": _l("Barangay Staff"),
        "Operator": _l("Operator"),
        "Active": _l("Active"),
        "Inactive": _l("Inactive"),
        "Disabled": _l("Disabled"),
        "Rejected": _l("Rejected"),
        "Pending": _l("Pending"),
        "Pending approval": _l("Pending approval"),
        "Pending verification": _l("Pending verification"),
        "Under Maintenance": _l("Under Maintenance"),
        "Offline": _l("Offline"),
        "Full": _l("Full"),
        "Empty": _l("Empty"),
        "Collecting": _l("Collecting"),
        "Collected": _l("Collected"),
        "Cancelled": _l("Cancelled"),
        "Available": _l("Available"),
        "Not Available": _l("Not Available"),
        "Urgent": _l("Urgent"),
        "Critical": _l("Critical"),
        "Mild": _l("Mild"),
        "On-going": _l("On-going"),
        "Completed": _l("Completed"),
        "Canceled": _l("Canceled"),
        "Created": _l("Created"),
        "Assigned": _l("Assigned"),
        "Renewed": _l("Renewed"),
        "Remark": _l("Remark"),
        "Reopened": _l("Reopened"),
        "Request Maintenance": _l("Request Maintenance"),
        "Pending Maintenance": _l("Pending Maintenance"),
        "Complete Maintenance": _l("Complete Maintenance"),
        "Unknown": _l("Unknown"),
        "No Status": _l("No Status"),
        "Awaiting approval": _l("Awaiting approval"),
        "E-mail not verified": _l("E-mail not verified"),
        "Weekly": _l("Weekly"),
        "Monthly": _l("Monthly"),
        "Yearly": _l("Yearly"),
        "Filtering": _l("Filtering"),
        "Slurry Making": _l("Slurry Making"),
        "Biogas Generation": _l("Biogas Generation"),
        "Final Output": _l("Final Output"),
        "January": _l("January"),
        "February": _l("February"),
        "March": _l("March"),
        "Schedule": _l("Schedule"),
        "Leaderboard": _l("Leaderboard"),
        "Rewards": _l("Rewards"),
        "Claimed Rewards": _l("Claimed Rewards"),
        "Point System": _l("Point System"),
        "Process Panels": _l("Process Panels"),
        "Chemical Additives": _l("Chemical Additives"),
        "Machines": _l("Machines"),
        "Waste Container": _l("Waste Container"),
        "Analytics": _l("Analytics"),
        "Waste fed": _l("Waste fed"),
        "pH": _l("pH"),
        "Temperature": _l("Temperature"),
        "Gas pressure": _l("Gas pressure"),
        "Methane": _l("Methane"),
        "Generator voltage": _l("Generator voltage"),
        "Generator current": _l("Generator current"),
        "Water added": _l("Water added"),
        "Generator power": _l("Generator power"),
        "A machine alert opened": _l("A machine alert opened"),
        "A machine alert closed": _l("A machine alert closed"),
        "A maintenance request assigned to you": _l("A maintenance request assigned to you"),
        "Your maintenance request is past its due date": _l("Your maintenance request is past its due date"),
        "A waste container marked Full": _l("A waste container marked Full"),
        "Your account's own events": _l("Your account's own events"),
        "Not Full": _l("Not Full"),
        "All areas": _l("All areas"),  # a reward offered everywhere (the sample's stored area)
        "Last 24 hours": _l("Last 24 hours"),  # the Analytics ranges
        "Last 7 days": _l("Last 7 days"),
        "Last 30 days": _l("Last 30 days"),
        "Last 12 months": _l("Last 12 months"),
        "Open": _l("Open"),
        "Closed": _l("Closed"),
    }
)


def shown(value: object) -> str:
    """A stored English label in the reader's language; anything else unchanged."""
    text = "" if value is None else str(value)
    label = DISPLAY_LABELS.get(text)
    return str(label) if label is not None else text
