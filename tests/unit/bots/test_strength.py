"""``basic`` beats ``random``, on fixed seeds (the ≥ 2,000-hand figures from ``cardroom
simulate`` are in docs/design.md §9)."""

from __future__ import annotations

from bots.arena import play, seat_kinds
from bots.tally import Tally

KINDS = ["basic", "random"]


def test_bourre_basic_nets_more_chips_per_hand_than_random_at_five_seats() -> None:
    tally = Tally()
    for table in range(10):
        play("bourre", seat_kinds(KINDS, 5, table), 40, seed=table, tally=tally)
    basic, rand = tally.by_kind["basic"], tally.by_kind["random"]
    assert basic.hands == rand.hands == 1000  # seat-hands: 400 hands at 5 seats
    assert basic.net / basic.hands > rand.net / rand.hands + 1.0


def test_burraco_basic_partnership_wins_most_hands_against_random() -> None:
    tally = Tally()
    for table in range(12):
        play("burraco", seat_kinds(KINDS, 4, table), 10, seed=table,
             options={"target": 1_000_000}, tally=tally)  # fmt: skip
    basic = tally.by_kind["basic"]
    assert basic.hands == 120
    assert basic.won / basic.hands >= 0.85
