"""Tables of the auth feature."""
