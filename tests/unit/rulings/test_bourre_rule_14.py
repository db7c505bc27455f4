"""Bourré rule 14 under ``reshuffle_pool``: a player never receives a card they discarded in
the same hand, under every option; ``all_discards`` gathers the current player's discards too,
and the dealer passes over them when serving that player (docs/rules/bourre.md rule 14)."""

from __future__ import annotations

import pytest

from domain.bourre.commands import Declare
from domain.bourre.events import Discarded, Reshuffled
from domain.bourre.state import Table
from domain.table import Event
from tests.unit.bourre.support import of_type, open_table, run, stack

# rule 14's example: eight seats, seat 0 deals and turns up KS; 12 cards in the stock
EXAMPLE = stack(
    [
        "9H 5D 7H 3H KS",
        "2C 3C 4C 5C 6C",
        "2D 3D 4D 6D 7D",
        "AS QS JS 10S 9S",
        "AC KC QC JC 10C",
        "AD KD QD JD 10D",
        "8S 7S 6S 5S 4S",
        "8C 9C 8D 9D 10H",
    ],
    stock="2S 3S 7C 2H 4H 5H 6H 8H JH QH KH AH",
)
DEALERS_DISCARD = ["9H", "5D", "7H", "3H"]


def the_example(pool: str, seed: int = 2) -> tuple[Table, list[Event]]:
    """Seats 1 and 2 discard five each, seats 3–7 pass, the dealer discards four."""
    state, _ = open_table({"seats": 8, "reshuffle_pool": pool}, decks=[EXAMPLE], seed=seed)
    return run(
        state,
        Declare(seat=1, play=True, discard=["2C", "3C", "4C", "5C", "6C"]),
        Declare(seat=2, play=True, discard=["2D", "3D", "4D", "6D", "7D"]),
        *[Declare(seat=s, play=False) for s in (3, 4, 5, 6, 7)],
        Declare(seat=0, play=True, discard=DEALERS_DISCARD),
    )


def test_rule_14_all_discards_passes_over_the_dealers_own_5d() -> None:
    state, events = the_example("all_discards")
    first, second, dealer = of_type(events, Discarded)
    assert first.drawn == ["2S", "3S", "7C", "2H", "4H"]
    assert second.drawn == ["5H", "6H", "8H", "JH", "QH"]
    (reshuffled,) = of_type(events, Reshuffled)
    # every discard not yet gathered, the dealer's own included
    assert sorted(reshuffled.pool) == sorted(first.discarded + second.discarded + DEALERS_DISCARD)
    # shuffled to 5D 5C 4C 3H 6D …: the dealer's 5D is passed over, 5C and 4C are served
    assert reshuffled.order[:4] == ["5C", "4C", "5D", "3H"]
    assert dealer.drawn == ["KH", "AH", "5C", "4C"]
    assert state.hand is not None
    assert [c.code for c in state.hand.stock[:3]] == ["5D", "3H", "6D"]


def test_rule_14_served_discards_gathers_only_the_players_already_served() -> None:
    _state, events = the_example("served_discards")
    first, second, dealer = of_type(events, Discarded)
    (reshuffled,) = of_type(events, Reshuffled)
    assert reshuffled.pool == first.discarded + second.discarded
    assert dealer.drawn[:2] == ["KH", "AH"]
    assert not set(dealer.drawn) & set(DEALERS_DISCARD)


@pytest.mark.parametrize("pool", ["served_discards", "all_discards"])
@pytest.mark.parametrize("seed", range(1, 41))
def test_rule_14_nobody_receives_a_card_they_discarded_under_any_pool(pool: str, seed: int) -> None:
    state, events = the_example(pool, seed)
    for discarded in of_type(events, Discarded):
        assert not set(discarded.drawn) & set(discarded.discarded)
    assert state.hand is not None
    for seat, cards in enumerate(state.hand.holdings):
        assert not set(cards) & set(state.hand.discards[seat])
