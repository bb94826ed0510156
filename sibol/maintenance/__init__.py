"""The maintenance feature."""
