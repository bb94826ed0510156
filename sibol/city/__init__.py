"""The City Admin feature - barangay management and the city dashboard."""
