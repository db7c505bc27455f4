"""What each format asks of a game (docs/rules/tournaments.md rule T1): the sides a table
seats (entries are sides: a player, or a partnership), the scoring, the tables' options.

The tournament names the games here, in the domain, as the rules documents do: a Burraco table
of four seats plays partnerships (seats 0 and 2 against 1 and 3); every other table seats one
entry a seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games import game_named
from domain.table import TableOpened
from domain.tournament.errors import InvalidField
from domain.tournament.events import DUPLICATE, SIT_AND_GO, SWISS
from domain.tournament.scoring import FIELD, MATCH, TOTAL, VP

PARTNERSHIP_GAMES = frozenset({"burraco"})


def sides_of(game: str, seats: int) -> tuple[tuple[int, ...], ...]:
    """The sides of a table: partnerships (0, 2) and (1, 3) at a four-seat partnership
    game, else one side a seat."""
    if game in PARTNERSHIP_GAMES and seats == 4:
        return ((0, 2), (1, 3))
    return tuple((seat,) for seat in range(seats))


def scoring_of(format_name: str, sides: int) -> str:
    """Duplicate: victory points between two sides, chips against the field otherwise;
    Swiss: match points; Sit & Go: the table's totals."""
    if format_name == DUPLICATE:
        return VP if sides == 2 else FIELD
    return MATCH if format_name == SWISS else TOTAL


def table_options(
    game_name: str, format_name: str, options: Mapping[str, Any], boards_per_round: int
) -> tuple[dict[str, Any], int]:
    """The options every table of the event opens with, and its seats. A duplicate table
    plays exactly its round's boards (option ``hands``; a target of points, where the game
    has one, set out of reach). Raises the game's :class:`InvalidOption` for a bad option."""
    game = game_named(game_name)
    if not isinstance(options, Mapping):
        raise InvalidField("options", "must be an object")
    if "tournament" in options:
        raise InvalidField("tournament", "is set by the tournament itself")
    chosen = dict(options)
    names = {option.name: option for option in game.option_schema}
    if format_name == DUPLICATE:
        if "hands" not in names:
            raise InvalidField("format", f"{game.title} tables cannot play a set number of hands")
        chosen["hands"] = boards_per_round
        target = names.get("target")
        if target is not None and target.max is not None:
            chosen["target"] = target.max
    normalised = game.table.options(chosen)
    state = game.table.evolve(None, TableOpened(game=game_name, options=normalised, seed=0))
    return chosen, game.seating(state).seats


FORMAT_NAMES = (DUPLICATE, SWISS, SIT_AND_GO)
