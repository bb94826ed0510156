"""Tables of the household feature."""
