"""The queue consumer's entry: `huey_consumer sibol.worker.huey`.

Importing every module that defines tasks registers them with the one queue, and the consumer
builds its app with the same factory as the web server.
"""

from __future__ import annotations

import logging

from . import create_app, emails
from .auth import tasks as auth_tasks
from .jobs.queue import huey, set_app_factory
from .reminders import tasks as reminder_tasks
from .telemetry import tasks as telemetry_tasks

set_app_factory(create_app)
# huey_consumer prints huey's log lines with a handler of its own; the app's logging (create_app)
# prints every logger's lines too: kept from reaching it, each line of the queue is printed once.
logging.getLogger("huey").propagate = False

TASK_MODULES = (emails, auth_tasks, telemetry_tasks, reminder_tasks)

__all__ = ["TASK_MODULES", "huey"]
