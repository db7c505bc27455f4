"""The follow loop of the process managers (the bots' worker, the timekeeper): batches back to
back while there is work, then idle polls that start quick and slow down to the poll interval
(low latency under load, cheap when idle); a failed batch is logged and retried with backoff."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

QUICK_POLL = 0.002  # the first idle poll after a batch (seconds)
LONGEST_BACKOFF = 5.0


def follow(
    run_once: Callable[[], int], stop: threading.Event, poll_interval: float, what: str
) -> None:
    """Call ``run_once`` (it returns how much it handled) until ``stop`` is set."""
    backoff = poll_interval
    idle = QUICK_POLL
    while not stop.is_set():
        try:
            handled = run_once()
        except Exception:
            log.exception("%s batch failed; retrying in %.2fs", what, backoff)
            stop.wait(backoff)
            backoff = min(max(backoff, 0.01) * 2, LONGEST_BACKOFF)
            continue
        backoff = poll_interval
        if handled:
            idle = QUICK_POLL
            continue
        stop.wait(min(idle, poll_interval))
        idle *= 2
