"""A random legal bot (for playouts, the engine benchmark and ``cardroom simulate``).

It draws or takes the pile at random, then keeps melding — a random listed meld or addition
each time, so it really builds burracos, goes to the pozzetto and closes — and finally
discards a random legal card. Randomness comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from typing import Any

from domain.burraco.commands import Draw, TakePile
from domain.burraco.legal import legal_commands, play_commands
from domain.burraco.state import PLAY, PLAYING, Table


def choose(table: Table, seat: int, rng: random.Random, meld_bias: float = 0.9) -> Any | None:
    """One legal command for ``seat`` (``None`` if it is not to act)."""
    r = table.round
    if r is not None and r.phase == PLAY and seat == r.turn and table.status == PLAYING:
        # the listing's two parts (legal_commands lists the melds, then the discards)
        melds, discards = play_commands(table, seat)
        if melds and (not discards or rng.random() < meld_bias):
            return rng.choice(melds)
        return rng.choice(discards) if discards else None
    options = legal_commands(table, seat)
    if not options:
        return None
    assert r is not None
    # Taking a lone discard again and again ends the hand in a stalemate (rule 21), so the
    # bot mostly draws and takes bigger piles more often.
    take = next((c for c in options if isinstance(c, TakePile)), None)
    chance = 0.1 if len(r.pile) == 1 else 0.35
    if take is not None and rng.random() < chance:
        return take
    return next((c for c in options if isinstance(c, Draw)), options[0])
