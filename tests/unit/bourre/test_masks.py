"""The bit masks the rules read (domain.bourre.codes) are the cards the hand holds: at every
step of random hands each seat's mask is its holding, the played mask is the cards played,
and the trick's heading card is the winner rule 18 names; the mask form of 5.1 and of the
cinch gives the cards the card-list form gives."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.bourre import GAME
from domain.bourre.cinch import apply_cinch
from domain.bourre.codes import CARD_AT, PACK, SUIT_INDEX, cards_in, mask_of
from domain.bourre.decide import decide_and_evolve
from domain.bourre.playing import gone_mask, playable
from domain.bourre.state import PLAY, PLAYING, Hand, Table
from domain.bourre.tricks import legal_cards, trick_winner
from domain.cards import Rank, Suit, card
from tests.unit.bourre.support import open_table

OPTION_SETS: list[dict[str, Any]] = [
    {"seats": 7},
    {"seats": 4, "trump_card": "separate_dealer_may_take", "cinch": "strict"},
    {"seats": 6, "four_card": True, "declaration": "two_round"},
]


def test_a_higher_card_of_a_suit_is_a_higher_bit_of_that_suits_13() -> None:
    for suit in Suit:
        bits = [mask_of([card(f"{rank.symbol}{suit.value}")]) for rank in sorted(Rank)]
        assert bits == sorted(bits)
        assert all(b >> 13 * SUIT_INDEX[suit] < 1 << 13 for b in bits)
    assert mask_of(PACK) == (1 << 52) - 1
    assert [CARD_AT[mask_of([c]).bit_length() - 1] for c in PACK] == list(PACK)


def _check(hand: Hand, table: Table) -> None:
    assert hand.held == tuple(mask_of(h) for h in hand.holdings)
    assert hand.gone == mask_of(hand.played)
    if hand.trick:
        _, best = trick_winner(hand.trick, hand.trump)
        assert CARD_AT[hand.best] == best
        assert hand.led == SUIT_INDEX[hand.trick[0][1].suit]  # type: ignore[index]
    if hand.phase == PLAY and hand.turn is not None:
        seat = hand.turn
        holding = list(hand.holdings[seat])
        trick = [c for _, c in hand.trick]
        expected = legal_cards(holding, hand.trump, trick)
        last = len(hand.trick) == len(hand.playing) - 1
        expected, _ = apply_cinch(
            expected,
            holding,
            hand.trump,
            trick,
            hand.tricks[seat],
            [*hand.played, *([hand.trump_card] if hand.trump_card_owner is None else [])],
            last,
            table.options.cinch,
        )
        legal, _ = playable(hand, seat, table.options)
        assert cards_in(holding, legal) == expected
        assert gone_mask(hand) & hand.held[seat] == 0


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_the_masks_follow_the_cards_through_random_hands(options: dict[str, Any]) -> None:
    rng = random.Random(str(options))
    state, _ = open_table({**options, "hands": 5}, seed=rng.randrange(2**32))
    steps = 0
    while state.status == PLAYING:
        assert state.hand is not None
        _check(state.hand, state)
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = decide_and_evolve(state, rng.choice(GAME.legal_commands(state, seat)))
        steps += 1
    assert steps > 50


def test_playable_answers_for_the_hand_seat_and_options_asked_not_the_last_ones() -> None:
    """``playable`` remembers its last answer (legal_commands, then decide): asking about
    another seat, other options or an equal copy of the hand in between changes nothing."""
    rng = random.Random("playable")
    state, _ = open_table({"seats": 5, "hands": 3}, seed=rng.randrange(2**32))
    no_cinch = msgspec.structs.replace(state.options, cinch="off")
    asked = 0
    while state.status == PLAYING:
        hand = state.hand
        assert hand is not None
        if hand.phase == PLAY:
            for seat in rng.sample(range(5), 5):
                for options in rng.sample([state.options, no_cinch], 2):
                    fresh = playable(msgspec.structs.replace(hand), seat, options)
                    assert playable(hand, seat, options) == fresh
                    assert playable(hand, seat, options) == fresh  # asked twice in a row
                    asked += 1
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = decide_and_evolve(state, rng.choice(GAME.legal_commands(state, seat)))
    assert asked > 100
