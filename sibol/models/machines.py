"""Tables of the machines feature."""
