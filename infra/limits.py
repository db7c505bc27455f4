"""Rate limits per client address (design §5, "Limits"): what ``CARDROOM_RATE_LIMITS`` says.

The syntax is a comma-separated list of budgets, each ``name=count/seconds`` for the
windowed kinds — ``tables`` (table creation), ``seats`` (seat taking), ``commands`` — and
``streams=count`` for the live streams one client may hold open at once. Kinds not named keep
their defaults; ``off`` turns every limit off (benchmarks, trusted load tests). Example:
``CARDROOM_RATE_LIMITS="tables=30/60s,commands=600/60s,streams=5"``.

The defaults let a person (and the test suite) play freely and stop a script: 120 tables a
minute is two a second, far from 10,000 in half a minute.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

WINDOWED = ("tables", "seats", "commands")
_WINDOWED = re.compile(r"([1-9][0-9]{0,8})/([1-9][0-9]{0,5})s")
_COUNT = re.compile(r"[1-9][0-9]{0,5}")


class RateLimitsError(ValueError):
    """A ``CARDROOM_RATE_LIMITS`` value that does not parse (the message says why)."""


@dataclass(frozen=True)
class Budget:
    """``count`` requests per ``seconds`` (a fixed window per client address)."""

    count: int
    seconds: int

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds}s"


@dataclass(frozen=True)
class RateLimits:
    """The budgets per client address; ``enabled`` False when the setting is ``off``."""

    enabled: bool = True
    windows: tuple[tuple[str, Budget], ...] = (
        ("tables", Budget(120, 60)),
        ("seats", Budget(240, 60)),
        ("commands", Budget(3000, 60)),
    )
    streams: int = 20

    def budget(self, kind: str) -> Budget:
        """The budget of ``tables``, ``seats`` or ``commands``."""
        return dict(self.windows)[kind]

    @classmethod
    def parse(cls, text: str) -> RateLimits:
        """The limits ``text`` sets (empty: the defaults); raises :class:`RateLimitsError`."""
        text = text.strip()
        if text.lower() == "off":
            return cls(enabled=False)
        limits = cls()
        windows = dict(limits.windows)
        for part in filter(None, (item.strip() for item in text.split(","))):
            name, equals, value = (piece.strip() for piece in part.partition("="))
            if not equals:
                raise RateLimitsError(f"{part!r}: expected name=value")
            if name == "streams":
                if not _COUNT.fullmatch(value):
                    raise RateLimitsError(f"streams={value!r}: expected a count from 1")
                limits = replace(limits, streams=int(value))
            elif name in WINDOWED:
                found = _WINDOWED.fullmatch(value)
                if not found:
                    raise RateLimitsError(f"{name}={value!r}: expected count/seconds, e.g. 60/60s")
                windows[name] = Budget(int(found.group(1)), int(found.group(2)))
            else:
                known = ", ".join((*WINDOWED, "streams"))
                raise RateLimitsError(f"unknown limit {name!r}; limits are: {known} (or off)")
        return replace(limits, windows=tuple(windows.items()))

    def __str__(self) -> str:
        if not self.enabled:
            return "off"
        budgets = [f"{name}={budget}" for name, budget in self.windows]
        return ",".join([*budgets, f"streams={self.streams}"])
