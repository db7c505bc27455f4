"""Bounded waits on a condition: a test waits for a state to be reached, never for a span of
time, and never asserts how long something took."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

_FIRST_PAUSE = 0.001
_LONGEST_PAUSE = 0.05


def wait_until(condition: Callable[[], T], timeout: float, message: str) -> T:
    """Call ``condition`` until it returns something truthy, and return that.

    Fails the test with ``message`` when ``timeout`` seconds pass first. The timeout is a
    bound against hanging, not a claim about speed: give it room. An exception raised by
    ``condition`` (e.g. an assertion that waiting still makes sense) ends the wait at once.
    """
    deadline = time.monotonic() + timeout
    pause = _FIRST_PAUSE
    while True:
        result = condition()
        if result:
            return result
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"{message} (waited {timeout:g} s)")
        time.sleep(min(pause, remaining))
        pause = min(pause * 2, _LONGEST_PAUSE)
