"""Routes that belong to no feature: /, /healthz, static files."""
