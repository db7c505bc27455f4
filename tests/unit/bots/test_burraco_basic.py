"""Burraco ``basic``, read as play advice: views with cards as literals, the choices a sound
player makes (domain/burraco/strategies.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bots import choose
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile

RNG = random.Random(0)
DRAW_OR_TAKE = [Draw(seat=0), TakePile(seat=0)]


def _melds(melds: Sequence[list[str]], first_id: int) -> list[dict[str, Any]]:
    return [
        {"id": first_id + i, "cards": cards, "burraco": len(cards) >= 7}
        for i, cards in enumerate(melds)
    ]


def view(
    hand: list[str],
    *,
    pile: Sequence[str] = (),
    phase: str = "play",
    ours: Sequence[list[str]] = (),
    theirs: Sequence[list[str]] = (),
    pozzetto: bool = False,
) -> dict[str, Any]:
    """Seat 0's view (team A with seat 2; the next player, seat 1, is team B)."""
    seats: list[dict[str, Any]] = [{"seat": s, "team": "AB"[s % 2]} for s in range(4)]
    seats[0]["cards"] = hand
    return {
        "yourSeat": 0,
        "phase": phase,
        "seats": seats,
        "discardPile": list(pile),
        "teams": [
            {"team": "A", "pozzetto": 0 if pozzetto else None, "melds": _melds(ours, 0)},
            {"team": "B", "pozzetto": None, "melds": _melds(theirs, 100)},
        ],
    }


def discards(hand: list[str]) -> list[Any]:
    return [Discard(seat=0, card=code) for code in dict.fromkeys(hand)]


def test_basic_does_not_discard_a_card_that_extends_an_opponents_meld_if_it_has_another() -> None:
    hand = ["9H", "JC", "KD"]
    seen = view(hand, theirs=[["10H", "JH", "QH"], ["KS", "KC", "KH"]])
    chosen = choose("burraco", "basic", seen, discards(hand), RNG)
    assert chosen == Discard(seat=0, card="JC")  # 9H and KD join the opponents' melds


def test_basic_does_not_discard_a_wild_when_it_has_another_card() -> None:
    hand = ["JK", "2C", "QS"]
    chosen = choose("burraco", "basic", view(hand), discards(hand), RNG)
    assert chosen == Discard(seat=0, card="QS")


def test_basic_keeps_a_pair_and_discards_the_lone_card() -> None:
    hand = ["8D", "8S", "KC"]
    chosen = choose("burraco", "basic", view(hand), discards(hand), RNG)
    assert chosen == Discard(seat=0, card="KC")


def test_basic_lays_its_naturals_before_a_meld_with_a_wild() -> None:
    hand = ["5H", "6H", "7H", "9C", "9D", "JK", "KS"]
    legal = [
        Meld(seat=0, cards=["5H", "6H", "7H"]),
        Meld(seat=0, cards=["9C", "9D", "JK"]),
        *discards(hand),
    ]
    chosen = choose("burraco", "basic", view(hand), legal, RNG)
    assert chosen == Meld(seat=0, cards=["5H", "6H", "7H"])


def test_basic_keeps_its_wild_rather_than_dirty_a_short_meld() -> None:
    hand = ["JK", "QS", "4D"]
    legal = [AddToMeld(seat=0, meld=0, cards=["JK"]), *discards(hand)]
    chosen = choose("burraco", "basic", view(hand, ours=[["8C", "9C", "10C"]]), legal, RNG)
    assert isinstance(chosen, Discard)
    assert chosen.card != "JK"


def test_basic_completes_a_burraco_with_a_wild() -> None:
    hand = ["2D", "QS", "4D"]
    legal = [AddToMeld(seat=0, meld=0, cards=["2D"]), *discards(hand)]
    ours = [["4H", "5H", "6H", "7H", "8H", "9H"]]
    chosen = choose("burraco", "basic", view(hand, ours=ours), legal, RNG)
    assert chosen == AddToMeld(seat=0, meld=0, cards=["2D"])


def test_basic_does_not_spoil_a_clean_burraco_with_a_wild() -> None:
    hand = ["JK", "QS", "QD", "4C"]
    clean = ["4H", "5H", "6H", "7H", "8H", "9H", "10H"]
    legal = [AddToMeld(seat=0, meld=0, cards=["JK"]), AddToMeld(seat=0, meld=1, cards=["JK"])]
    seen = view(hand, ours=[clean, ["KS", "KD", "KC"]])
    chosen = choose("burraco", "basic", seen, [*legal, *discards(hand)], RNG)
    assert chosen == AddToMeld(seat=0, meld=1, cards=["JK"])  # the team has a burraco


def test_basic_takes_a_pile_holding_a_wild() -> None:
    seen = view(["7S", "KD", "4C"], pile=["9H", "JK"], phase="draw")
    assert choose("burraco", "basic", seen, DRAW_OR_TAKE, RNG) == TakePile(seat=0)


def test_basic_takes_a_pile_of_three_for_one_use_and_a_short_pile_only_for_two() -> None:
    hand = ["7S", "8S", "KD", "4C"]
    three = view(hand, pile=["JH", "9S", "3D"], phase="draw")
    two = view(hand, pile=["JH", "9S"], phase="draw")
    assert choose("burraco", "basic", three, DRAW_OR_TAKE, RNG) == TakePile(seat=0)
    assert choose("burraco", "basic", two, DRAW_OR_TAKE, RNG) == Draw(seat=0)


def test_basic_takes_a_lone_discard_that_lets_a_short_hand_go_out() -> None:
    burraco = ["4H", "5H", "6H", "7H", "8H", "9H", "10H"]
    closing = view(["KD"], pile=["QH"], phase="draw", ours=[burraco, ["QC", "QD", "QS"]],
                   pozzetto=True)  # fmt: skip
    to_pozzetto = view(["KD"], pile=["QH"], phase="draw", ours=[["QC", "QD", "QS"]])
    assert choose("burraco", "basic", closing, DRAW_OR_TAKE, RNG) == TakePile(seat=0)
    assert choose("burraco", "basic", to_pozzetto, DRAW_OR_TAKE, RNG) == TakePile(seat=0)


def test_basic_does_not_take_a_lone_discard_when_it_may_not_close_yet() -> None:
    no_burraco = view(["KD"], pile=["QH"], phase="draw", ours=[["QC", "QD", "QS"]],
                      pozzetto=True)  # fmt: skip
    assert choose("burraco", "basic", no_burraco, DRAW_OR_TAKE, RNG) == Draw(seat=0)


def test_a_short_hand_draws_rather_than_take_a_pile_it_cannot_go_out_with() -> None:
    short = view(["KD", "3C"], pile=["QH", "9S", "4D"], phase="draw", ours=[["QC", "QD", "QS"]])
    longer = view(["KD", "3C", "7S"], pile=["QH", "9S", "4D"], phase="draw",
                  ours=[["QC", "QD", "QS"]])  # fmt: skip
    assert choose("burraco", "basic", short, DRAW_OR_TAKE, RNG) == Draw(seat=0)
    assert choose("burraco", "basic", longer, DRAW_OR_TAKE, RNG) == TakePile(seat=0)
