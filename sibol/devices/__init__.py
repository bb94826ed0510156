"""The routes a machine's controller calls: its commands, and SIBOL's own device API."""
