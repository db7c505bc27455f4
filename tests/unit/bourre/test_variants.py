"""The draw's stock running out (rule 14) and the trump-card and four-card variants
(rules 32–33)."""

from __future__ import annotations

import pytest

from domain.bourre import GAME
from domain.bourre.commands import Declare, PlayCard, SecondChance
from domain.bourre.events import (
    Anted,
    Discarded,
    HandSettled,
    Reshuffled,
    SecondChanceDeclared,
    TrickWon,
)
from domain.cards import codes, derive_seed, parse, shuffled
from domain.errors import IllegalCommand
from tests.unit.bourre.support import of_type, open_table, run, stack


def eight_seats_discarding_everything(pool: str):
    """Eight seats (40 cards dealt, 12 in stock); seats 1, 2, 3 each discard five."""
    state, _events = open_table({"seats": 8, "reshuffle_pool": pool}, seed=21)
    hand = state.hand
    assert hand is not None
    commands = [
        Declare(seat=s, play=True, discard=[c.code for c in hand.holdings[s]]) for s in (1, 2, 3)
    ]
    return run(state, *commands)


def test_rule_14_when_the_stock_runs_out_the_served_discards_are_reshuffled() -> None:
    state, events = eight_seats_discarding_everything("served_discards")
    first, second, third = of_type(events, Discarded)
    (reshuffled,) = of_type(events, Reshuffled)
    # the pool is the discards of the players already served, never the current player's
    assert reshuffled.pool == first.discarded + second.discarded
    assert reshuffled.order == codes(
        shuffled(parse(reshuffled.pool), derive_seed(21, "reshuffle", 1, 1))
    )
    assert reshuffled.round == 1
    # the current player gets the last two stock cards, then the top of the reshuffled pool
    assert third.drawn[2:] == reshuffled.order[:3]
    assert not set(third.drawn) & set(third.discarded)  # never their own discard
    assert events.index(reshuffled) < events.index(third)
    assert state.hand is not None and len(state.hand.stock) == 7


def test_rule_14_reshuffle_pool_all_discards_includes_the_current_players_discards() -> None:
    _state, events = eight_seats_discarding_everything("all_discards")
    first, second, third = of_type(events, Discarded)
    (reshuffled,) = of_type(events, Reshuffled)
    assert sorted(reshuffled.pool) == sorted(first.discarded + second.discarded + third.discarded)


def test_rule_14_a_second_reshuffle_gathers_only_discards_not_yet_gathered() -> None:
    state, events = eight_seats_discarding_everything("served_discards")
    hand = state.hand
    assert hand is not None
    commands = [
        Declare(seat=s, play=True, discard=[c.code for c in hand.holdings[s]]) for s in (4, 5)
    ]
    state, more = run(state, *commands)
    rounds = of_type(more, Reshuffled)
    assert [r.round for r in rounds] == [2]
    third = of_type(events, Discarded)[2]
    fourth = of_type(more, Discarded)[0]
    assert rounds[0].pool == third.discarded + fourth.discarded


SEPARATE = stack(
    ["2C 3C 4C 5C 6C", "KS QS JS 2H 3H", "4D 5D 6D 7D 8D"], turned="AS", stock="9D 10D"
)


def test_rule_32_the_dealer_may_take_the_turned_card_and_draws_one_card_less() -> None:
    state, _ = open_table({"seats": 3, "trump_card": "separate_dealer_may_take"}, decks=[SEPARATE])
    state, _ = run(state, Declare(seat=1, play=True), Declare(seat=2, play=True))
    state, events = run(state, Declare(seat=0, play=True, discard=["2C", "3C"], take_trump=True))
    (drawn,) = of_type(events, Discarded)
    assert drawn.took_trump and drawn.drawn == ["9D"]
    assert state.hand is not None
    assert sorted(c.code for c in state.hand.holdings[0]) == sorted(["4C", "5C", "6C", "AS", "9D"])
    assert state.hand.trump_card_owner == 0
    assert GAME.view(state, None)["trumpCardOwner"] == 0


def test_rule_32_only_a_dealer_who_discards_may_take_the_turned_card() -> None:
    state, _ = open_table({"seats": 3, "trump_card": "separate_dealer_may_take"}, decks=[SEPARATE])
    with pytest.raises(IllegalCommand, match="only the dealer"):
        GAME.decide(state, Declare(seat=1, play=True, discard=["2H"], take_trump=True))
    state, _ = run(state, Declare(seat=1, play=True), Declare(seat=2, play=True))
    with pytest.raises(IllegalCommand, match="at least one discard"):
        GAME.decide(state, Declare(seat=0, play=True, take_trump=True))


def test_rule_32_in_plain_separate_mode_nobody_takes_the_turned_card() -> None:
    state, _ = open_table({"seats": 3, "trump_card": "separate"}, decks=[SEPARATE])
    state, _ = run(state, Declare(seat=1, play=True), Declare(seat=2, play=True))
    with pytest.raises(IllegalCommand, match="cannot be taken"):
        GAME.decide(state, Declare(seat=0, play=True, discard=["2C"], take_trump=True))
    assert not any(c.take_trump for c in GAME.legal_commands(state, 0))


FOUR = stack(["2C 3C 4C 5C", "AS KS 2H 3H", "4D 5D 6D 7D"], turned="9S", stock="9D 10D JD")


def test_rule_33_four_card_deals_four_each_and_turns_a_card_for_trump() -> None:
    state, _ = open_table({"seats": 3, "four_card": True}, decks=[FOUR])
    assert state.hand is not None
    assert [len(h) for h in state.hand.holdings] == [4, 4, 4]
    assert state.hand.trump_card.code == "9S" and state.hand.trump_card_owner is None
    with pytest.raises(IllegalCommand, match="at most 3 cards"):
        GAME.decide(state, Declare(seat=1, play=True, discard=["AS", "KS", "2H", "3H"]))


def test_rule_33_after_the_draw_a_second_chance_to_pass_and_continuing_costs_an_ante() -> None:
    # given everyone plays and draws
    state, _ = open_table({"seats": 3, "four_card": True}, decks=[FOUR])
    state, _ = run(state, *(Declare(seat=s, play=True) for s in (1, 2, 0)))
    assert state.hand is not None and state.hand.phase == "second_chance"
    assert GAME.to_act(state) == frozenset({1})
    # when seat 1 continues, seat 2 passes and the dealer continues
    state, events = run(
        state,
        SecondChance(seat=1, play=True),
        SecondChance(seat=2, play=False),
        SecondChance(seat=0, play=True),
    )
    # then the continuing players paid one more ante each and play four tricks
    assert of_type(events, Anted) == [
        Anted(hand=1, seats=[1], amount=1, reason="four_card"),
        Anted(hand=1, seats=[0], amount=1, reason="four_card"),
    ]
    assert state.pot == 5
    assert state.hand is not None and state.hand.playing == (1, 0)
    events = []
    while state.hand.number == 1:
        seat = min(GAME.to_act(state))
        state, more = run(state, GAME.legal_commands(state, seat)[0])
        events += more
    assert len(of_type(events, TrickWon)) == 4
    assert of_type(events, HandSettled)[0].winner == 1


def test_rule_33_when_all_others_pass_at_the_second_chance_the_last_player_must_continue() -> None:
    state, _ = open_table({"seats": 3, "four_card": True}, decks=[FOUR])
    state, _ = run(state, *(Declare(seat=s, play=True) for s in (1, 2, 0)))
    state, _ = run(state, SecondChance(seat=1, play=False), SecondChance(seat=2, play=False))
    with pytest.raises(IllegalCommand, match="everyone else passed"):
        GAME.decide(state, SecondChance(seat=0, play=False))
    state, events = run(state, SecondChance(seat=0, play=True))
    assert of_type(events, SecondChanceDeclared)[0].play
    (settled,) = of_type(events, HandSettled)
    assert settled.solo and settled.winner == 0


def test_rule_33_a_second_chance_out_of_phase_is_refused() -> None:
    state, _ = open_table({"seats": 3, "four_card": True}, decks=[FOUR])
    with pytest.raises(IllegalCommand, match="no second chance now"):
        GAME.decide(state, SecondChance(seat=1, play=True))
    state, _ = run(state, *(Declare(seat=s, play=True) for s in (1, 2, 0)))
    with pytest.raises(IllegalCommand, match="second_chance phase"):
        GAME.decide(state, PlayCard(seat=1, card="AS"))
