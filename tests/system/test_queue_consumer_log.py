"""The queue consumer as `make run` starts it prints each of its log lines once."""

from __future__ import annotations

import time

from tests.support.servers import QueueConsumer, fresh_database, server_env, setup_database


def test_the_consumer_prints_each_line_once(tmp_path):
    env = server_env(fresh_database(tmp_path, "consumer"))
    setup_database(env)
    log = tmp_path / "consumer.log"
    consumer = QueueConsumer(env, log).start()
    try:
        deadline = time.monotonic() + 60
        while "consumer started" not in log.read_text().lower() and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        consumer.stop()
    lines = log.read_text().splitlines()
    started = [line for line in lines if "huey consumer started" in line.lower()]
    assert len(started) == 1, "\n".join(lines)
    assert len([line for line in lines if "Consumer exiting" in line]) == 1, "\n".join(lines)
