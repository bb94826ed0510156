"""Telemetry: device keys, readings, rollups, thresholds, alerts and the notification centre."""
