"""System tests: the app as its own processes (gunicorn), its scripts and CLI, fresh databases.

Each test here starts real servers or builds a database of its own, so they are slow; every one
talks to a database and is marked `db` (tests/conftest.py), so `make test-db` reruns them on MariaDB.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.servers import drop_database, fresh_database


@pytest.fixture
def fresh_database_url(tmp_path: Path) -> Iterator[str]:
    """An empty database of the kind under test (a second MariaDB database in CI)."""
    url = fresh_database(tmp_path, "migrations")
    yield url
    drop_database(url)
