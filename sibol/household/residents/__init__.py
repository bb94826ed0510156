"""Residents: a Household account's own view, claims by QR code, account links."""
