"""What other features use of telemetry: the one module they import it through.

The work itself lives in the modules named beside each name; this is the feature's surface to
the rest of the console (machines' tabs and list, the dashboard's and the monthly report's
figures, the device routes of sibol/devices), so a change inside telemetry never reaches into
another feature unannounced.
"""

from __future__ import annotations

from flask import url_for

from .alerts import open_alert_counts as open_alert_counts
from .dashboard import machine_waste_between as machine_waste_between
from .exports import analytics_csv as analytics_csv
from .ingest import parse_reading as parse_reading
from .ingest import store as store_readings
from .metrics import metric_info as metric_info
from .panels import EDITOR_ROLES as EDITOR_ROLES
from .panels import RANGES as RANGES
from .panels import machine_tab as machine_tab
from .serializers import last_reading_json as last_reading_json

__all__ = ["store_readings"]


def device_page_url(machine_id: int) -> str:
    """The machine's device page (its key, healthy ranges, readings and commands)."""
    return url_for("telemetry.device", machine_id=machine_id)
