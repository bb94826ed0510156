"""The auth feature."""
