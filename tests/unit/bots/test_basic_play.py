"""The ``basic`` bots' choices, read as play advice, on views with cards as literals."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bots import choose
from domain.bourre.commands import Declare, PlayCard
from domain.burraco.commands import Discard, Draw, TakePile

RNG = random.Random(0)


def bourre_view(
    cards: list[str], trick: Sequence[tuple[int, str]] = (), **extra: Any
) -> dict[str, Any]:
    seats = [{"seat": s, "passed": False} for s in range(4)]
    return {
        "yourSeat": 0, "trump": "H", "cards": cards, "pot": 4, "options": {"ante": 1,
        "max_discard": 5}, "seats": seats, "trick": [{"seat": s, "card": c} for s, c in trick],
        **extra,
    }  # fmt: skip


def declares(cards: list[str]) -> list[Any]:
    from itertools import combinations

    plays = [Declare(seat=0, play=True, discard=list(c)) for k in range(6)
             for c in combinations(cards, k)]  # fmt: skip
    return [Declare(seat=0, play=False), *plays]


def test_bourre_basic_passes_a_hand_without_trumps_or_aces() -> None:
    cards = ["9S", "7C", "4D", "3S", "2C"]
    assert choose("bourre", "basic", bourre_view(cards), declares(cards), RNG) == Declare(
        seat=0, play=False
    )


def test_bourre_basic_plays_top_trumps_and_draws_for_the_rest() -> None:
    cards = ["AH", "KH", "QH", "7C", "4D"]
    chosen = choose("bourre", "basic", bourre_view(cards), declares(cards), RNG)
    assert chosen is not None
    assert chosen.play and sorted(chosen.discard) == ["4D", "7C"]


def test_bourre_basic_heads_the_trick_with_its_highest_winner_when_others_follow() -> None:
    legal = [PlayCard(seat=0, card=c) for c in ("KS", "QS")]
    view = bourre_view(["KS", "QS", "2H"], trick=[(1, "JS")])
    assert choose("bourre", "basic", view, legal, RNG) == PlayCard(seat=0, card="KS")


def test_bourre_basic_wins_the_trick_cheaply_when_it_plays_last() -> None:
    legal = [PlayCard(seat=0, card=c) for c in ("KS", "QS")]
    view = bourre_view(["KS", "QS", "2H"], trick=[(1, "JS"), (2, "3S"), (3, "4S")])
    assert choose("bourre", "basic", view, legal, RNG) == PlayCard(seat=0, card="QS")


def burraco_view(
    hand: list[str], pile: list[str], phase: str, opponents: Sequence[list[str]] = ()
) -> dict[str, Any]:
    seats = [{"seat": s, "team": "AB"[s % 2]} for s in range(4)]
    seats[0]["cards"] = hand
    melds = [{"id": i, "cards": cards, "burraco": False} for i, cards in enumerate(opponents)]
    return {"yourSeat": 0, "phase": phase, "seats": seats, "discardPile": pile,
            "teams": [{"team": "A", "melds": []}, {"team": "B", "melds": melds}]}  # fmt: skip


def test_burraco_basic_takes_a_pile_with_two_uses_and_draws_otherwise() -> None:
    legal = [Draw(seat=0), TakePile(seat=0)]
    useful = burraco_view(["7S", "8S", "KD"], ["9S", "KS", "KC"], "draw")
    one_use = burraco_view(["7S", "8S", "KD"], ["4C", "9S"], "draw")
    useless = burraco_view(["7S", "8S", "KD"], ["4C", "JH"], "draw")
    assert choose("burraco", "basic", useful, legal, RNG) == TakePile(seat=0)
    assert choose("burraco", "basic", one_use, legal, RNG) == Draw(seat=0)
    assert choose("burraco", "basic", useless, legal, RNG) == Draw(seat=0)


def test_burraco_basic_takes_a_lone_discard_only_when_it_makes_two_melds() -> None:
    legal = [Draw(seat=0), TakePile(seat=0)]
    one = burraco_view(["7S", "8S", "KD"], ["9S"], "draw")
    two = burraco_view(["7S", "8S", "9D", "9C"], ["9S"], "draw")
    assert choose("burraco", "basic", one, legal, RNG) == Draw(seat=0)
    assert choose("burraco", "basic", two, legal, RNG) == TakePile(seat=0)


def test_burraco_basic_does_not_feed_the_next_players_melds() -> None:
    hand = ["8C", "KD", "QD", "7S"]
    legal = [Discard(seat=0, card=c) for c in hand]
    view = burraco_view(hand, ["3H"], "play", opponents=[["4S", "5S", "6S"]])
    chosen = choose("burraco", "basic", view, legal, RNG)
    assert chosen is not None
    assert chosen.card == "8C"  # 7S joins 4S-6S; K-Q of diamonds are worth keeping
