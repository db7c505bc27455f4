"""Burraco rule 24 under ``bonuses: fitab``: a royal burraco is a clean run of 13, with the
ace low (A 2 … K) or high (2 3 … K A), the 2 natural in its place; both pay 300
(docs/rules/burraco.md rule 24)."""

from __future__ import annotations

import pytest

from domain.burraco.commands import AddToMeld, Discard, Draw, Meld
from domain.burraco.events import HandScored, TeamScore
from domain.burraco.melds import arrange_new
from domain.burraco.scoring import burraco_bonus
from domain.cards import codes, parse
from tests.unit.burraco.helpers import hand_round, names, play, seated_table, stacked_deck

HEARTS_2_TO_Q = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"
POZZETTO = "AH 4D 5D 6D 7D 8D 9D JC JD JS 5C"


@pytest.mark.parametrize(
    ("ace", "laid_out"),
    [
        (None, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),  # without a hint the ace plays high
        ("high", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
        ("low", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"),
    ],
)
def test_rule_24_a_clean_run_of_13_is_royal_with_the_ace_low_or_high(
    ace: str | None, laid_out: str
) -> None:
    deck = stacked_deck(
        players=2,
        hands={1: HEARTS_2_TO_Q, 0: "3S 5S 7S 9S JS KS 3C 4C 6C 8C 10C"},
        pozzetti=(POZZETTO, ""),
        discard="QC",
        stock="KH 9C",
    )
    table = seated_table(deck, options={"players": 2, "bonuses": "fitab"})
    table, events = play(
        table,
        Draw(seat=1),  # KH
        Meld(seat=1, cards=codes(parse(f"{HEARTS_2_TO_Q} KH"))),  # rule 16: pozzetto at once
        AddToMeld(seat=1, meld=1, cards=["AH"], ace=ace),
    )
    run = hand_round(table).melds[0].layout
    assert run.cards == tuple(laid_out.split()) and run.clean
    table, _ = play(
        table,
        Meld(seat=1, cards=codes(parse("4D 5D 6D 7D 8D 9D"))),
        Meld(seat=1, cards=codes(parse("JC JD JS"))),
    )
    table, events = play(table, Discard(seat=1, card="5C"))  # rule 18: closing
    assert names(events)[:3] == ["Discarded", "HandClosed", "HandScored"]
    scored = next(e for e in events if isinstance(e, HandScored))
    # hearts A–K: ace 15, 2 20, 3–7 5 each, 8–K 10 each = 120; diamonds 4–9 40; JJJ 30
    assert scored.scores[1] == TeamScore(
        melds=120 + 40 + 30, in_hand=0, burracos=300, closing=100, pozzetto=0, total=590,
        clean_burracos=1,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("meld", "bonus"),
    [
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", 300),  # royal, read ace high
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", 150),  # 13 with a wild: semi-clean
        ("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", 200),  # clean but 12: clean burraco
    ],
)
def test_rule_24_only_a_clean_run_of_13_is_royal(meld: str, bonus: int) -> None:
    assert burraco_bonus(arrange_new(meld.split()), "fitab") == bonus
