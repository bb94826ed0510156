"""Calls fired at the same moment, for the race tests against a live server."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence


def at_once(calls: Sequence[Callable[[], object]], timeout: float = 60) -> list:
    """Run the calls in threads released together by a barrier; their answers in call order."""
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout)
    return answers
