"""The admin feature."""
