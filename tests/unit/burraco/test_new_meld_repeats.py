"""``candidates.new_meld_cards`` proposes no meld twice (same cards in any order) without
looking for repeats: a set holds one rank, a sequence two ranks or more of one suit, and a
suit's proposals cover different positions (the ace's two places included)."""

from __future__ import annotations

import random

from domain.burraco.candidates import new_meld_cards
from domain.cards import burraco_pack, codes

PACK = codes(burraco_pack())


def _no_repeats(hand: list[str]) -> None:
    proposed = new_meld_cards(hand)
    keys = [tuple(sorted(cards)) for cards in proposed]
    assert len(keys) == len(set(keys)), (hand, proposed)


def test_burraco_new_meld_proposals_never_repeat_in_random_hands() -> None:
    rng = random.Random(5)
    for _ in range(5000):
        _no_repeats(rng.sample(PACK, rng.randint(1, 30)))


def test_burraco_new_meld_proposals_never_repeat_in_one_suit_with_aces_and_wilds() -> None:
    rng = random.Random(6)
    for suit in "SHDC":
        same_suit = [code for code in PACK if code.endswith(suit)]
        wilds = [code for code in PACK if code.startswith("2") or code == "JK"]
        for _ in range(1500):
            hand = rng.sample(same_suit, rng.randint(2, len(same_suit)))
            hand += rng.sample(wilds, rng.randint(0, 3))
            rng.shuffle(hand)
            _no_repeats(hand)
