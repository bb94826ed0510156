"""Residents (issue 13): a Household account's own view, claims by QR code, account links."""
