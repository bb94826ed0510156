"""The queue consumer's entry: `huey_consumer sibol.worker.huey`.

Importing every module that defines tasks (each feature declares its own in FEATURES) registers them with the one queue, and the consumer
builds its app with the same factory as the web server.
"""

from __future__ import annotations

import logging

from . import FEATURES, create_app, emails
from .jobs.queue import huey, set_app_factory
from .web.features import task_modules

set_app_factory(create_app)
# huey_consumer prints huey's log lines with a handler of its own; the app's logging (create_app)
# prints every logger's lines too: kept from reaching it, each line of the queue is printed once.
logging.getLogger("huey").propagate = False

# E-mail delivery (the platform's) and each feature's declared task modules (Feature.tasks).
TASK_MODULES = (emails, *task_modules(FEATURES))

__all__ = ["TASK_MODULES", "huey"]
