"""Labels and badge colours the templates show (sibol/web/presentation.py, sibol/maintenance/presentation.py)."""

from __future__ import annotations

import pytest

from sibol.maintenance import presentation as mnt
from sibol.web.presentation import BADGE_COLOURS, badge_colour


@pytest.mark.parametrize(
    ("kind", "label", "colour"),
    [
        ("maintenance-priority", "Urgent", "red"),
        ("maintenance-priority", "Critical", "orange"),
        ("maintenance-priority", "Mild", "yellow"),
        ("maintenance-priority", "Someday", "grey"),
        ("maintenance-status", "On-going", "blue"),
        ("maintenance-status", "Completed", "green"),
        ("account", "Active", "green"),
        ("account", "Pending", "yellow"),
        ("machine", "Offline", "red"),
        ("machine", "Brand new status", "blue"),
        ("container", "Full", "red"),
        ("container", "Empty", "green"),
        ("reward", "Not Available", "grey"),
        ("collection", None, "yellow"),
    ],
)
def test_badge_colour_by_kind_with_a_fallback(kind, label, colour):
    assert badge_colour(kind, label) == colour


def test_an_unknown_kind_is_a_programming_error():
    assert "nonsense" not in BADGE_COLOURS
    with pytest.raises(KeyError):
        badge_colour("nonsense", "Active")


def test_maintenance_labels_name_unknown_values_plainly():
    assert mnt.priority_label("urgent") == "Urgent"
    assert mnt.priority_label("weird") == "Weird"
    assert mnt.priority_label(None) == "Unknown"
    assert mnt.status_label("ongoing") == "On-going"
    assert mnt.event_label("renewed") == "Renewed"
    assert mnt.event_label("teleported") == "teleported"


def test_every_label_has_a_badge_colour_of_its_own():
    for label in mnt.PRIORITY_LABELS.values():
        assert badge_colour("maintenance-priority", label) != "grey"
    assert {badge_colour("maintenance-status", label) for label in mnt.STATUS_LABELS.values()} == {
        "blue",
        "green",
        "grey",
    }
