"""The dashboard feature."""
