"""Tables of the maintenance feature."""
