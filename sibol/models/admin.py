"""Tables of the admin feature."""
