"""Bourré rule 34 (``tie: split``) with rules 6, 24 and 27: the tied players share the pot in
whole chips, the remainder stays, and under ``split`` the tied players ante again; under
``carry`` the pot stays whole and they skip the next ante (docs/rules/bourre.md rule 34)."""

from __future__ import annotations

from typing import Any

from domain.bourre.commands import Declare, PlayCard
from domain.bourre.events import Anted, HandSettled
from domain.bourre.state import Table
from domain.table import Event
from tests.unit.bourre.support import of_type, open_table, run, stack

# rule 34's example: seat 0 deals and turns up 2H (hearts trump)
DEAL = stack(["3S 5S 4C 6C 2H", "AS KS 3C 5C 8D", "2S 4S AC KC 7D"])
TRICKS = [  # (seat, card) in playing order: seat 1 leads, a trick's winner leads the next
    (1, "AS"), (2, "2S"), (0, "3S"),
    (1, "KS"), (2, "4S"), (0, "5S"),
    (1, "3C"), (2, "AC"), (0, "4C"),
    (2, "KC"), (0, "6C"), (1, "5C"),
    (2, "7D"), (0, "2H"), (1, "8D"),
]  # fmt: skip


def play_the_hand(state: Table) -> tuple[Table, list[Event]]:
    """Everyone plays without discarding; tricks 2-2-1 (seats 1 and 2 two each, seat 0 one)."""
    declared = [Declare(seat=s, play=True) for s in (1, 2, 0)]
    return run(state, *declared, *[PlayCard(seat=s, card=c) for s, c in TRICKS])


def the_example(**options: Any) -> tuple[HandSettled, list[Anted], Table]:
    state, _ = open_table({"seats": 3, "ante": 1, **options}, decks=[DEAL])
    state, events = play_the_hand(state)
    (settled,) = of_type(events, HandSettled)
    return settled, [a for a in of_type(events, Anted) if a.hand == 2], state


def test_rule_34_split_the_tied_take_one_chip_each_and_one_chip_stays() -> None:
    settled, antes, state = the_example(tie="split")
    assert settled.tricks == [1, 2, 2]
    assert (settled.pot, settled.tied, settled.winner) == (3, [1, 2], None)
    assert settled.payouts == [0, 1, 1]
    assert settled.carried == 1
    assert settled.bourre == []
    # rule 6: paid their share, the tied players ante like everyone else
    assert [a.seats for a in antes] == [[0, 1, 2]]
    assert state.pot == 1 + 3
    assert state.nets == (-2, -1, -1)


def test_rule_24_carry_the_pot_stays_whole_and_the_tied_skip_the_ante() -> None:
    settled, antes, state = the_example(tie="carry")
    assert (settled.tied, settled.payouts, settled.carried) == ([1, 2], [0, 0, 0], 3)
    assert [a.seats for a in antes] == [[0]]
    assert state.pot == 3 + 1


def test_rule_34_split_shares_the_capped_pot_and_the_rest_stays() -> None:
    # pot 3 over a limit of 2 (rule 26): each tied player takes 2 // 2 = 1, 1 chip stays
    settled, _antes, _state = the_example(tie="split", pot_limit=2)
    assert (settled.cap, settled.payouts, settled.carried) == (2, [0, 1, 1], 1)
