"""Options every game accepts, and the check that refuses any other key (design §2).

``reveal``: ``after_hand`` (default) shows a hand's hidden cards in timelines and replays once
it is settled; ``never`` keeps them hidden. ``spectator_delay``: spectators see the table this
many events behind live (default 0). They are visibility, not rules: the kernel checks them,
each game checks its own keys. The turn clock's options (``turn_seconds``,
``timeouts_to_sit_out``, :mod:`domain.table.clock`) are accepted by every game too, and kept
only when given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.errors import InvalidOption
from domain.table.schema import CHOICE, INT, Option

REVEAL_VALUES = ("after_hand", "never")
COMMON_OPTION_DEFAULTS: dict[str, Any] = {"reveal": "after_hand", "spectator_delay": 0}
MAX_SPECTATOR_DELAY = 10_000

# The common options' schema (design §5, visibility); no game rule defines them.
COMMON_SCHEMA = (
    Option(
        name="reveal",
        type=CHOICE,
        choices=REVEAL_VALUES,
        choice_labels=("after the hand", "never"),
        default=COMMON_OPTION_DEFAULTS["reveal"],
        label="Show a settled hand's hidden cards in replays",
        help="after_hand: a settled hand's hidden cards become public in timelines and "
        "replays; never: they stay hidden (design §5, visibility).",
    ),
    Option(
        name="spectator_delay",
        type=INT,
        min=0,
        max=MAX_SPECTATOR_DELAY,
        default=COMMON_OPTION_DEFAULTS["spectator_delay"],
        label="Spectators see the table this many events late",
        help="Spectators see the table this many events behind live (design §5).",
    ),
)


def split_options(
    raw: Mapping[str, Any], game: str, accepted: Iterable[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(common, own)``: the common options checked, defaults filled in, and the game's own
    keys as given. A key that is neither is refused naming it, with every option ``game``
    accepts (its own and the common ones) in the message."""
    if not isinstance(raw, Mapping):
        raise InvalidOption("options", "must be an object")
    from domain.table.clock import CLOCK_OPTIONS, check_clock_options
    from domain.table.fork import FORK_OPTIONS, check_fork_options

    own_keys = list(accepted)
    common = dict(COMMON_OPTION_DEFAULTS)
    own: dict[str, Any] = {}
    for key, value in raw.items():
        if key in common:
            common[key] = value
        elif key in CLOCK_OPTIONS or key in FORK_OPTIONS:
            continue
        elif key == "tournament":  # a tournament table's placement (domain.tournament.embargo)
            from domain.tournament.embargo import check

            common[key] = check(value)
        elif key in own_keys:
            own[key] = value
        else:
            every = ", ".join([*own_keys, *COMMON_OPTION_DEFAULTS, *CLOCK_OPTIONS])
            raise InvalidOption(key, f"unknown option for {game}; accepted options: {every}")
    if common["reveal"] not in REVEAL_VALUES:
        raise InvalidOption("reveal", f"must be one of {', '.join(REVEAL_VALUES)}")
    delay = common["spectator_delay"]
    if (
        isinstance(delay, bool)
        or not isinstance(delay, int)
        or not 0 <= delay <= MAX_SPECTATOR_DELAY
    ):
        raise InvalidOption(
            "spectator_delay", f"must be an integer from 0 to {MAX_SPECTATOR_DELAY}"
        )
    common.update(check_clock_options(raw))
    common.update(check_fork_options(raw))  # a fork's marks (domain.table.fork)
    return common, own
