"""A Bourré seat whose turn ran out (design §9, turn clocks): it passes where it may
(rules 11, 33), otherwise stays without discarding, and in trick play plays its lowest legal
card (rank first; a trump only when nothing else is legal)."""

from __future__ import annotations

from typing import Any

from domain.bourre.commands import Declare, Draw, PlayCard, SecondChance
from domain.bourre.legal import legal_commands
from domain.bourre.state import Table
from domain.cards import card


def timeout_move(state: Table, seat: int) -> Any | None:
    legal = legal_commands(state, seat)
    if not legal:
        return None
    passes = [c for c in legal if isinstance(c, Declare | SecondChance) and not c.play]
    if passes:
        return passes[0]
    stays = [
        c for c in legal if isinstance(c, Declare | Draw) and not c.discard and not c.take_trump
    ]
    if stays:
        return stays[0]
    plays = [c for c in legal if isinstance(c, PlayCard)]
    if plays:
        assert state.hand is not None
        trump = state.hand.trump

        def lowness(command: PlayCard) -> tuple[bool, int]:
            played = card(command.card)
            return (played.suit == trump, int(played.rank or 0))

        return min(plays, key=lowness)
    return legal[0]
