"""gunicorn's settings for every server of this repository (`make run`, the tests' and benches'
servers): gunicorn reads ./gunicorn.conf.py from the folder it starts in. The command line still
sets the workers and the address.

Threads: each worker serves GUNICORN_THREADS (16) requests at once (gthread). A request that
waits on the database (a MariaDB commit waits for its log flush: 2.5 to 6 ms on this machine's
shared disk) leaves the CPU to the worker's other requests, and the commits of requests in
flight together are flushed together (InnoDB's group commit): that is what brings one reading a request
near /healthz's rate on MariaDB (docs/telemetry.md). Each thread may hold a database
connection of its own (the pool's, and the lean device path's): 2 workers x 16 threads stay well
under MariaDB's default 151 connections. The app keeps no per-request state outside Flask's
contexts, as `flask run` (threaded) already required.
"""

import os

threads = int(os.environ.get("GUNICORN_THREADS", "16"))
