"""The queue consumer's entry: `huey_consumer sibol.worker.huey`.

Importing every module that defines tasks registers them with the one queue, and the consumer
builds its app with the same factory as the web server.
"""

from __future__ import annotations

from . import create_app, emails
from .auth import tasks as auth_tasks
from .jobs.queue import huey, set_app_factory
from .reminders import tasks as reminder_tasks
from .telemetry import tasks as telemetry_tasks

set_app_factory(create_app)

TASK_MODULES = (emails, auth_tasks, telemetry_tasks, reminder_tasks)

__all__ = ["TASK_MODULES", "huey"]
