"""The machines feature."""
