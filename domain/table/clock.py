"""Turn clocks (design §9): the timeout a timekeeper issues, sitting out and back in.

The domain has no clock. A table with option ``turn_seconds`` has a turn deadline that the
outer layers compute from the recorded time of the event that prompted the turn; when it
passes, the timekeeper sends :class:`TimeOut` for the seat to act. Its events record what
happened: :class:`TurnTimedOut` (the seat's timeouts so far, and whether it is now sat out),
then the events of the game's forced move (Bourré: pass, or the lowest legal card; Burraco:
draw and discard the card drawn) — :func:`forced_moves`, from the game's ``timeout_move``.
After ``timeouts_to_sit_out`` timeouts the seat is sat out: a bot plays it until the player
sends :class:`SitIn`, recorded as :class:`SatIn`. Neither event changes the game's state.

Options (accepted by every game, recorded only when given so older tables read the same):
``turn_seconds`` (default none: no clock), ``timeouts_to_sit_out`` (default 3),
``bot_think_ms`` (default 300: what a searching bot may think per decision, at most half the
turn: :func:`bot_think_ms`) and ``result_pause`` (default 3 seconds): after a hand settles,
the seated people have that long to read its result — the next hand's first turn clock
starts when the pause ends (:func:`turn_starts`), and the bots do not act before it has passed
(a table of bots only does not pause).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.errors import IllegalCommand, InvalidOption, NotYourTurn
from domain.table import Command, Event, Seating
from domain.table.schema import INT, NUMBER, Option

CLOCK_OPTIONS = ("turn_seconds", "timeouts_to_sit_out", "result_pause", "bot_think_ms")
DEFAULT_TIMEOUTS_TO_SIT_OUT = 3
DEFAULT_RESULT_PAUSE = 3
MAX_RESULT_PAUSE = 60
MAX_TURN_SECONDS = 86_400
MAX_TIMEOUTS = 100
MAX_FORCED_STEPS = 4  # Burraco: a draw and a discard
DEFAULT_BOT_THINK_MS = 300  # the search bot's budget per decision (bots/search.py)
MAX_THINK = 10_000  # milliseconds

# The clock's options as a form shows them (every game with a timeout move offers them).
CLOCK_SCHEMA = (
    Option(
        name="turn_seconds",
        type=NUMBER,
        min=1,
        max=MAX_TURN_SECONDS,
        nullable=True,
        default=None,
        label="Seconds per turn (empty: no turn clock)",
        help="A turn clock: when a turn runs out the seat makes the rules' timeout move "
        "(see the options table of the rules). Empty: no clock.",
    ),
    Option(
        name="timeouts_to_sit_out",
        type=INT,
        min=1,
        max=MAX_TIMEOUTS,
        default=DEFAULT_TIMEOUTS_TO_SIT_OUT,
        label="Timeouts before a bot takes the seat",
        help="After this many timeouts the seat sits out and a bot plays it until the player "
        "sits in again.",
    ),
    Option(
        name="result_pause",
        type=NUMBER,
        min=0,
        max=MAX_RESULT_PAUSE,
        default=DEFAULT_RESULT_PAUSE,
        label="Seconds to read a hand's result before the next",
        help="After a hand settles, no turn clock runs and no bot acts for this many seconds, "
        "so the people seated can read the result (a table of bots only does not pause).",
    ),
    Option(
        name="bot_think_ms",
        type=INT,
        min=1,
        max=MAX_THINK,
        default=DEFAULT_BOT_THINK_MS,
        label="Milliseconds a searching bot thinks per decision",
        help="The search bot's budget per decision, never more than half the turn clock "
        "(design §9.2).",
    ),
)


class TimeOut(Command, frozen=True, tag="time_out"):
    """The timekeeper's: ``seat``'s turn ran out. ``timeouts`` counts this one; ``sat_out``
    whether the seat now sits out (the timekeeper reads both from the table's events)."""

    seat: int
    timeouts: int = 1
    sat_out: bool = False


class SitIn(Command, frozen=True, tag="sit_in"):
    """A sat-out player takes their seat back from the bot."""

    seat: int


class TurnTimedOut(Event, frozen=True, tag="TurnTimedOut"):
    seat: int
    timeouts: int
    sat_out: bool


class SatIn(Event, frozen=True, tag="SatIn"):
    seat: int


CLOCK_COMMANDS = (TimeOut, SitIn)
CLOCK_EVENTS = (TurnTimedOut, SatIn)


def check_clock_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The clock options given (checked); absent ones are left out."""
    out: dict[str, Any] = {}
    if "turn_seconds" in raw:
        value = raw["turn_seconds"]
        if value is not None and (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not 0 < value <= MAX_TURN_SECONDS
        ):
            raise InvalidOption(
                "turn_seconds", f"must be null or a number of seconds up to {MAX_TURN_SECONDS}"
            )
        out["turn_seconds"] = value
    if "timeouts_to_sit_out" in raw:
        value = raw["timeouts_to_sit_out"]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TIMEOUTS:
            raise InvalidOption(
                "timeouts_to_sit_out", f"must be an integer from 1 to {MAX_TIMEOUTS}"
            )
        out["timeouts_to_sit_out"] = value
    if "result_pause" in raw:
        value = raw["result_pause"]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not 0 <= value <= MAX_RESULT_PAUSE
        ):
            raise InvalidOption(
                "result_pause", f"must be a number of seconds from 0 to {MAX_RESULT_PAUSE}"
            )
        out["result_pause"] = value
    if "bot_think_ms" in raw:
        value = raw["bot_think_ms"]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_THINK:
            raise InvalidOption("bot_think_ms", f"must be an integer from 1 to {MAX_THINK}")
        out["bot_think_ms"] = value
    return out


def bot_think_ms(options: Mapping[str, Any]) -> int:
    """A searching bot's budget per decision in milliseconds (option ``bot_think_ms``), never
    more than half the turn clock when there is one."""
    value = int(options.get("bot_think_ms") or DEFAULT_BOT_THINK_MS)
    clock = turn_seconds(options)
    if clock is not None:
        value = min(value, max(1, int(clock * 500)))
    return value


def result_pause(options: Mapping[str, Any]) -> float:
    """A table's pause after a settled hand, in seconds, from its recorded options."""
    value = options.get("result_pause")
    return float(DEFAULT_RESULT_PAUSE if value is None else value)


def turn_starts(prompted_at: float, settled_at: float | None, pause: float) -> float:
    """When a turn begins to count (POSIX seconds): when the event that prompted it was
    stored, or — for the first turns after a settled hand — once the result pause has passed
    (``settled_at``: when the table's last hand settled, ``None`` if none has)."""
    if settled_at is None:
        return prompted_at
    return max(prompted_at, settled_at + pause)


def turn_seconds(options: Mapping[str, Any]) -> float | None:
    """A table's turn length (``None``: no clock), from its recorded options."""
    value = options.get("turn_seconds")
    return None if value is None else float(value)


def timeouts_to_sit_out(options: Mapping[str, Any]) -> int:
    return int(options.get("timeouts_to_sit_out") or DEFAULT_TIMEOUTS_TO_SIT_OUT)


def sit_in(seating: Seating, command: SitIn) -> list[Any]:
    """Rule: only a seated player of a table in play may sit back in."""
    seat = command.seat
    if not (0 <= seat < seating.seats and seating.names[seat] is not None):
        raise IllegalCommand("only a seated player may sit in")
    if seating.status != "playing":
        raise IllegalCommand("the table is not in play")
    return [SatIn(seat=seat)]


def forced_moves(
    state: Any,
    command: TimeOut,
    to_act: Callable[[Any], frozenset[int]],
    timeout_move: Callable[[Any, int], Any],
    decision: Callable[[Any, Any], tuple[list[Any], Any]],
    evolve: Callable[[Any, Any], Any],
) -> tuple[list[Any], Any]:
    """The events of a timeout: :class:`TurnTimedOut`, then the game's forced moves for the
    seat until the table no longer waits for it."""
    seat = command.seat
    if seat not in to_act(state):
        raise NotYourTurn(f"seat {seat} is not to act: nothing to time out")
    events: list[Any] = [
        TurnTimedOut(seat=seat, timeouts=max(1, command.timeouts), sat_out=command.sat_out)
    ]
    state = evolve(state, events[0])
    for _ in range(MAX_FORCED_STEPS):
        if seat not in to_act(state):
            break
        move = timeout_move(state, seat)
        if move is None:
            break
        more, state = decision(state, move)
        events += more
    return events, state
