"""gunicorn's settings for every server of this repository (`make run`, the tests' and benches'
servers): gunicorn reads ./gunicorn.conf.py from the folder it starts in. The command line still
sets the workers and the address.

Threads: each worker serves GUNICORN_THREADS (16) requests at once (gthread). A request that waits on
the database (a MariaDB commit waits for its log flush, about 2.5 ms on this machine's disk)
leaves the CPU to the worker's other requests, and the commits of requests in flight together are
flushed together (InnoDB's group commit): that is how one reading a request keeps pace with
/healthz on MariaDB (docs/telemetry.md). The app keeps no per-request state outside Flask's
contexts, as `flask run` (threaded) already required.
"""

import os

threads = int(os.environ.get("GUNICORN_THREADS", "16"))
