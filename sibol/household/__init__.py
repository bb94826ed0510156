"""The household feature."""
