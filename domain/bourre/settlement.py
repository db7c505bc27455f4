"""Settlement of a hand: the money flow of rule 27 (rules 16, 23–26, 34 ``tie``).

```
P   = carried + antes for this hand + bourré payments from the last hand   (pot at stake)
cap = min(P, pot_limit or infinity)
unique winner: winner receives cap; carried' = P - cap
tie:           carried' = P            (tie: split — the tied share cap, remainder stays)
each bourré player pays cap into the next pot
```

Next hand's antes (rule 6): everyone but this hand's bourré players and, with ``tie: carry``,
the tied players (their stake stayed in the pot). With ``tie: split`` the tied players were
paid their share, so they ante like everyone else; with ``double_ante`` nobody is exempt.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec


class Settlement(msgspec.Struct, frozen=True):
    pot: int
    cap: int
    winner: int | None
    payouts: list[int]
    bourre: list[int]
    bourre_payment: int
    tied: list[int]
    carried: int
    solo: bool


def settle(
    pot: int,
    tricks: Sequence[int],
    active: Sequence[int],
    *,
    pot_limit: int | None,
    tie: str,
    solo: bool = False,
) -> Settlement:
    """Who wins what. ``active`` are the seats that played the hand out (or the one seat left
    when everyone else passed: ``solo``, rule 16 — that seat wins and nobody is bourré)."""
    cap = pot if pot_limit is None else min(pot, pot_limit)
    payouts = [0] * len(tricks)
    if solo:
        (winner,) = active
        payouts[winner] = cap
        return Settlement(pot, cap, winner, payouts, [], 0, [], pot - cap, True)
    active = sorted(active)  # seat order in the event, whatever the rotation
    most = max(tricks[s] for s in active)
    leaders = [s for s in active if tricks[s] == most]
    bourre = [s for s in active if tricks[s] == 0]  # rule 25
    if len(leaders) == 1:  # rule 23
        winner = leaders[0]
        payouts[winner] = cap
        return Settlement(pot, cap, winner, payouts, bourre, cap, [], pot - cap, False)
    carried = pot  # rule 24: the split pot stays
    if tie == "split":  # rule 34: the tied share the pot equally, the remainder stays
        share = cap // len(leaders)
        for seat in leaders:
            payouts[seat] = share
        carried = pot - share * len(leaders)
    return Settlement(pot, cap, None, payouts, bourre, cap, leaders, carried, False)
