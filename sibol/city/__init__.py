"""Issue 15: the City Admin feature - barangay management and the city dashboard."""
