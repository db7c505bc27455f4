"""Hand histories (design §8, "Analytics"): one settled hand told in order as a person reads
it — "Ann antes 1 · Bob declares play · Bob discards 2, draws 2 · Ann leads 9♠ …".

Presentation, not rules: it reads the hand's events as spectators see them (the query
service's redaction, :meth:`infra.queries.TableQueries.timeline`) and tells each with its
game's narrator (``house.narrate``, :mod:`domain.narration`); a game without one, or an event
its narrator leaves alone, gets the plain rendering ("Ann: Dealt").
"""

from __future__ import annotations

from domain.errors import InvalidOption
from domain.games import game_named
from domain.narration import Event, Narrator, Teller, plain

SEPARATOR = " · "


def narrator(game: str) -> Narrator | None:
    """The narrator of the game called ``game`` (None: unknown, or told plainly)."""
    try:
        return game_named(game).house.narrate
    except InvalidOption:
        return None


def tell(game: str, names: list[str | None], events: list[Event]) -> list[str]:
    """Each event of one hand as a line a person reads, in order."""
    narrate = narrator(game)
    teller = Teller(names)
    lines = []
    for event in events:
        line = narrate(teller, event) if narrate is not None else None
        lines.append(line if line is not None else plain(teller, event))
    return lines


def text_of(lines: list[str]) -> str:
    return SEPARATOR.join(lines)
